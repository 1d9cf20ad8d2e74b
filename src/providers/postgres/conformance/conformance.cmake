# The PostgreSQL provider's conformance fixtures and tests, one file per suite it runs
# (docket_conformance(), tests/conformance/provider_fixtures.cmake). Test code only.
# Each fixture works in a schema of its own on the server of DOCKET_TEST_POSTGRES_URL
# (docket_test_postgres).
docket_conformance(inbox inbox_fixture.cc LINK docket_test_postgres)
docket_conformance(outbox outbox_fixture.cc LINK docket_test_postgres)
docket_conformance(claim claim_fixture.cc LINK docket_test_postgres)
docket_conformance(eventsourcing eventsourcing_fixture.cc
  postgres_schema_test.cc  # the event sourcing schema beside the inbox's in one schema
  LINK docket_test_postgres)
