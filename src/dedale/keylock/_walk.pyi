from array import array

def walk(parent: array[int], is_key: bytes, set_of: array[int], required: array[int],
         by_rank: array[int], sets: int, visits: int, order: array[int], steps_at: array[int],
         climbed: bytearray) -> tuple[int, int]: ...
