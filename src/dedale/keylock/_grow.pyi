from array import array

def grow(is_key: bytes, set_of: array[int], required: array[int], member_start: array[int], members: array[int],
         sets: int, spread: float, state: int, picks: array[int], weights: array[float],
         totals: array[float]) -> int: ...
