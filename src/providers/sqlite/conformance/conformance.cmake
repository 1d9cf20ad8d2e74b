# The SQLite provider's conformance fixtures and tests, one file per suite it runs
# (docket_conformance(), tests/conformance/provider_fixtures.cmake). Test code only.
docket_conformance(inbox sqlite_inbox_fixture.cc)
docket_conformance(outbox sqlite_outbox_fixture.cc
  sqlite_outbox_migration_test.cc  # the outbox schema brought from version 1
  sqlite_outbox_lease_clock_test.cc  # relays with skewed clocks (issue 37)
  sqlite_outbox_lease_runs_test.cc)  # leases as runs of sequences (schema version 3)
docket_conformance(claim sqlite_claim_fixture.cc
  sqlite_claim_migration_test.cc  # the claim inbox schema brought from version 1
  sqlite_claim_lease_clock_test.cc)  # claimers with skewed clocks (issue 37)
docket_conformance(checkpoint sqlite_checkpoint_fixture.cc)
docket_conformance(eventsourcing sqlite_eventsourcing_fixture.cc
  sqlite_schema_test.cc)  # the event sourcing schema beside the inbox's in one file
# A scratch database for the tool's tests on every provider (tests/tool).
docket_conformance(tool sqlite_scratch_database.cc)
