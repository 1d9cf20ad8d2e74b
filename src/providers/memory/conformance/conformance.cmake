# The memory provider's conformance fixtures and tests, one file per suite it runs
# (docket_conformance(), tests/conformance/provider_fixtures.cmake). Test code only.
docket_conformance(inbox inbox_fixture.cc)
docket_conformance(outbox outbox_fixture.cc)
docket_conformance(claim claim_fixture.cc)
docket_conformance(checkpoint checkpoint_fixture.cc)
docket_conformance(eventsourcing eventsourcing_fixture.cc
  # The memory database's own units of work: appends, saga saves and joined stores.
  memory_append_race_test.cc memory_database_test.cc memory_saga_unit_test.cc)
