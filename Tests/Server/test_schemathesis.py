"""juice-serve against its contract, openapi.yaml, by a client we did not
write: schemathesis generates requests for every /api operation, valid and
invalid, sends them to a running server as a signed-in manager (the session
cookie and the X-CSRF-Token header, as the spec's security schemes say), and
fails on any 5xx, any status the spec does not list for the operation, and
any body, content type or header the spec does not allow.

Two operations are left to test_api.py: `GET /api/events` never ends (a
stream), and `DELETE /api/session` would sign the fuzzing session out.
Sign-in is fuzzed on its own with fewer examples: each one runs bcrypt.
"""
from pathlib import Path

import pytest
import schemathesis
from hypothesis import HealthCheck, Phase, settings
from schemathesis.checks import not_a_server_error
from schemathesis.config import SchemathesisConfig
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    negative_data_rejection,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from conftest import MANAGER, OWNER, fresh_server

SPEC = Path(__file__).resolve().parents[2] / "openapi.yaml"
CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_schema_conformance,
    response_headers_conformance,
    negative_data_rejection,
]
# Bounded so the whole file runs in about a minute on two cores.
SETTINGS = dict(
    deadline=None,
    derandomize=True,
    suppress_health_check=list(HealthCheck),
    phases=[Phase.explicit, Phase.generate],
)


@pytest.fixture(scope="module")
def fuzzed_server(tmp_path_factory, users_database):
    srv = fresh_server(tmp_path_factory.mktemp("fuzz"), users_database)
    srv.start()
    try:
        yield srv
    finally:
        srv.stop()


@pytest.fixture(scope="module")
def manager(fuzzed_server):
    return fuzzed_server.session(MANAGER)


# The schema is loaded when the module is (schemathesis's lazy fixture
# loader does not run under pytest 9); the server's address and the
# session are given to each call instead.
schema = schemathesis.openapi.from_path(SPEC, config=SchemathesisConfig.from_dict({
    "generation": {"mode": "all", "with-security-parameters": False},
}))


@schema.exclude(path="/api/events").exclude(path="/api/session").parametrize()
@settings(max_examples=200, **SETTINGS)
def test_every_operation_conforms_to_openapi_yaml(case, fuzzed_server, manager):
    response = case.call(base_url=fuzzed_server.url, session=manager, timeout=10)
    case.validate_response(response, checks=CHECKS)


@pytest.fixture(scope="module")
def owner(fuzzed_server):
    return fuzzed_server.session(OWNER)


@schema.include(path_regex="^/api/chain").parametrize()
@settings(max_examples=50, **SETTINGS)
def test_the_chain_conforms_to_openapi_yaml_for_an_owner(case, fuzzed_server, owner):
    """As the manager above, the chain's calls are 403; as an owner, 200s that conform."""
    response = case.call(base_url=fuzzed_server.url, session=owner, timeout=10)
    case.validate_response(response, checks=CHECKS)


@schema.include(path="/api/session", method="POST").parametrize()
@settings(max_examples=8, **SETTINGS)
def test_sign_in_conforms_to_openapi_yaml(case, fuzzed_server):
    response = case.call(base_url=fuzzed_server.url, timeout=30)
    case.validate_response(response, checks=CHECKS)


def test_the_fuzzing_session_stayed_signed_in(fuzzed_server, manager):
    """The checks above ran as a manager, not as a stranger answered 401."""
    r = manager.get(fuzzed_server.url + "/api/shop", timeout=10)
    assert r.status_code == 200 and r.json()["role"] == "manager"
