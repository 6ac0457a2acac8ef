"""The web app's test clients: a browser on this machine asks for 127.0.0.1 (the app refuses other Hosts),
and its pages' forms carry the browser's token (here as htmx sends it, a header)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from dedale.web.app import create_app

BASE = "http://127.0.0.1"


def page_token(client: TestClient) -> str:
    """The form token the home page gives this client (its cookie is kept by the client)."""
    found = re.search(r'name="csrf" value="([0-9a-f]+)"|"X-CSRF-Token": "([0-9a-f]+)"', client.get("/").text)
    assert found, "the home page carries no form token"
    return found.group(1) or found.group(2)


@contextmanager
def web_client(db: Path, token: bool = True, **options: Any) -> Iterator[TestClient]:
    """A client of a new app on `db` (started and shut down around the block); with `token`, it sends the
    pages' form token with every request."""
    with TestClient(create_app(db), base_url=BASE, **options) as client:
        if token:
            client.headers["X-CSRF-Token"] = page_token(client)
        yield client


def started(client: TestClient, system: str, **form: str) -> str:
    """Post the system's form (`form`: its fields, the seed among them); the id of the session it opens."""
    response = client.post(f"/new/{system}", data=form)
    assert response.status_code == 303, response.text
    return response.headers["location"].rsplit("/", 1)[1]
