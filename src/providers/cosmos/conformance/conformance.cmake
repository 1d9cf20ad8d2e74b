# The Cosmos DB provider's conformance fixtures, one file per suite it runs
# (docket_conformance(), tests/conformance/provider_fixtures.cmake). Test code only.
# Each fixture works in a database of its own on the test server of DOCKET_TEST_COSMOS_URL
# (docket_test_cosmos).
docket_conformance(claim cosmos_claim_fixture.cc LINK docket_test_cosmos)
docket_conformance(inbox cosmos_inbox_fixture.cc LINK docket_test_cosmos)
docket_conformance(checkpoint cosmos_checkpoint_fixture.cc LINK docket_test_cosmos)
docket_conformance(outbox cosmos_outbox_fixture.cc LINK docket_test_cosmos)
# The event, snapshot and saga stores (their own cases and the legacy-key guard's are
# cosmos_test's, ../tests/).
docket_conformance(eventsourcing cosmos_eventsourcing_fixture.cc LINK docket_test_cosmos)
# A scratch database for the tool's tests on every provider (tests/tool): the inbox
# commands on the claim inbox, the projections commands on the checkpoints.
docket_conformance(tool cosmos_scratch_database.cc LINK docket_test_cosmos)
# `docket events show`, `sagas show` and `migrate scan` under the event and saga stores'
# legacy-key guard (tests/tool).
docket_conformance(tool cosmos_inspect_test.cc LINK docket_test_cosmos)
# `docket migrate tenant-rekey` on legacy items written raw: the cases every provider
# with legacy records runs (tests/tool/tenant_rekey_cases.h).
docket_conformance(tool cosmos_tenant_rekey_test.cc LINK docket_test_cosmos)
# `docket bench claim`, `events` and `inbox` on the test server (src/providers/cosmos/bench/).
docket_conformance(tool cosmos_bench_test.cc LINK docket_test_cosmos)
