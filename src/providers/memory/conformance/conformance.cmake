# The memory provider's conformance fixtures and tests, one file per suite it runs
# (docket_conformance(), tests/conformance/provider_fixtures.cmake). Test code only.
docket_conformance(inbox memory_inbox_fixture.cc)
docket_conformance(outbox memory_outbox_fixture.cc)
docket_conformance(claim memory_claim_fixture.cc)
docket_conformance(checkpoint memory_checkpoint_fixture.cc)
docket_conformance(eventsourcing memory_eventsourcing_fixture.cc
  # The memory database's own units of work: appends, saga saves and joined stores.
  memory_append_race_test.cc memory_database_test.cc memory_saga_unit_test.cc)
