# The PostgreSQL provider's conformance fixtures and tests, one file per suite it runs
# (docket_conformance(), tests/conformance/provider_fixtures.cmake). Test code only.
# Each fixture works in a schema of its own on the server of DOCKET_TEST_POSTGRES_URL
# (docket_test_postgres).
docket_conformance(inbox postgres_inbox_fixture.cc LINK docket_test_postgres)
docket_conformance(outbox postgres_outbox_fixture.cc LINK docket_test_postgres)
docket_conformance(claim postgres_claim_fixture.cc LINK docket_test_postgres)
docket_conformance(checkpoint postgres_checkpoint_fixture.cc LINK docket_test_postgres)
docket_conformance(eventsourcing postgres_eventsourcing_fixture.cc
  postgres_schema_test.cc  # the event sourcing schema beside the inbox's in one schema
  postgres_append_race_test.cc  # an append that loses its first version writes nothing
  postgres_append_failure_test.cc  # unique violations that are not a lost race
  postgres_saga_failure_test.cc  # a saga create's unique violations that are not a lost race
  LINK docket_test_postgres)
# Concurrent steps of one saga on real connections, and the event feed consumer's
# late-commit case with two real transactions.
docket_conformance(sagas postgres_saga_race_test.cc LINK docket_test_postgres)
docket_conformance(projections postgres_feed_late_commit_test.cc LINK docket_test_postgres)
# A scratch database for the tool's tests on every provider (tests/tool).
docket_conformance(tool postgres_scratch_database.cc LINK docket_test_postgres)
