# The SQLite provider's conformance fixtures and tests, one file per suite it runs
# (docket_conformance(), tests/conformance/provider_fixtures.cmake). Test code only.
docket_conformance(inbox inbox_fixture.cc)
docket_conformance(outbox outbox_fixture.cc)
docket_conformance(claim claim_fixture.cc)
docket_conformance(checkpoint checkpoint_fixture.cc)
docket_conformance(eventsourcing eventsourcing_fixture.cc
  sqlite_schema_test.cc)  # the event sourcing schema beside the inbox's in one file
# A scratch database for the tool's tests on every provider (tests/tool).
docket_conformance(tool scratch_database.cc)
