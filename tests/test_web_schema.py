"""Schemathesis over the API's OpenAPI schema: whatever a client sends, the answer is never a 5xx, and every
answer (its status, its content type, its body) is one the schema documents."""

from __future__ import annotations

import tempfile
from pathlib import Path

import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.checks import (
    content_type_conformance,
    not_a_server_error,
    response_schema_conformance,
    status_code_conformance,
)

from budget import examples
from dedale.web.app import create_app

# Schemathesis's client asks for the host "testserver": allowed here as a user would allow a name.
APP = create_app(Path(tempfile.mkdtemp(prefix="dedale-schema-")) / "schema.db", allow_hosts=["testserver"])
schema = schemathesis.openapi.from_asgi("/openapi.json", APP)


@schema.parametrize()
@settings(max_examples=examples(40), deadline=None, suppress_health_check=list(HealthCheck))
def test_no_request_makes_the_server_fail_and_every_answer_is_documented(case: schemathesis.Case) -> None:
    response = case.call()
    assert response.status_code < 500, (case.method, case.formatted_path, response.text[:500])
    case.validate_response(response, checks=[not_a_server_error, status_code_conformance, content_type_conformance,
                                             response_schema_conformance])
