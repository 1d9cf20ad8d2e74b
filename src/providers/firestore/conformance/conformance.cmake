# The Firestore provider's conformance fixtures, one file per suite it runs
# (docket_conformance(), tests/conformance/provider_fixtures.cmake). Test code only.
# Each fixture works under a collection prefix of its own on the Firestore emulator of
# DOCKET_TEST_FIRESTORE_URL (docket_test_firestore).
docket_conformance(claim firestore_claim_fixture.cc LINK docket_test_firestore)
docket_conformance(inbox firestore_inbox_fixture.cc LINK docket_test_firestore)
docket_conformance(checkpoint firestore_checkpoint_fixture.cc LINK docket_test_firestore)
docket_conformance(outbox firestore_outbox_fixture.cc LINK docket_test_firestore)
docket_conformance(eventsourcing firestore_eventsourcing_fixture.cc LINK docket_test_firestore)
# A scratch database for the tool's tests on every provider, and `docket bench claim` on
# the Firestore emulator, the inspection commands under its legacy-key guard, and the
# online re-key of legacy inbox ids (tests/tool).
docket_conformance(tool firestore_scratch_database.cc firestore_bench_test.cc firestore_inspect_test.cc
  firestore_tenant_rekey_test.cc
  firestore_inbox_migration_test.cc
  LINK docket_test_firestore)
# `docket demo --store firestore://...` end to end, and its services' invoice count (tests/tool).
docket_conformance(tool firestore_demo_test.cc LINK docket_test_firestore docket_order_pipeline)
