"""Documents checked against their JSON Schema with jsonschema-rs, whose validators are made once a schema:
`jsonschema.validate` checks the schema itself and builds its validator anew at every call, about 200 times
the cost of validating (100 ms for a large paper dungeon, where a property test checks hundreds)."""

from __future__ import annotations

import json
from functools import cache
from typing import Any

import jsonschema_rs

ValidationError = jsonschema_rs.ValidationError


@cache
def _validator(schema_text: str) -> Any:
    return jsonschema_rs.validator_for(json.loads(schema_text))


def validate(document: Any, schema: dict[str, Any]) -> None:
    """Raise ValidationError, naming where, if `document` does not follow `schema`."""
    _validator(json.dumps(schema, sort_keys=True)).validate(document)
