# The DynamoDB provider's conformance fixtures, one file per suite it runs
# (docket_conformance(), tests/conformance/provider_fixtures.cmake). Test code only.
# Each fixture works under a table prefix of its own on the DynamoDB Local server of
# DOCKET_TEST_DYNAMODB_URL (docket_test_dynamodb).
docket_conformance(claim dynamodb_claim_fixture.cc LINK docket_test_dynamodb)
docket_conformance(inbox dynamodb_inbox_fixture.cc LINK docket_test_dynamodb)
docket_conformance(checkpoint dynamodb_checkpoint_fixture.cc LINK docket_test_dynamodb)
docket_conformance(outbox dynamodb_outbox_fixture.cc LINK docket_test_dynamodb)
# Strict order per ordering key through the outbox's key items (issue 30): the claim
# obeys a key item that holds an earlier sequence the indexes do not show yet.
docket_conformance(outbox dynamodb_outbox_key_order_test.cc LINK docket_test_dynamodb)
docket_conformance(eventsourcing dynamodb_eventsourcing_fixture.cc LINK docket_test_dynamodb)
# A scratch database for the tool's tests on every provider, and `docket bench claim`
# and `docket bench events` on DynamoDB Local, and the inspection commands under its
# legacy-key guard (tests/tool).
docket_conformance(tool dynamodb_scratch_database.cc dynamodb_bench_test.cc dynamodb_inspect_test.cc
  dynamodb_tenant_rekey_test.cc
  LINK docket_test_dynamodb)
# `docket demo --store dynamodb://...` end to end, and its services' invoice count (tests/tool).
docket_conformance(tool dynamodb_demo_test.cc LINK docket_test_dynamodb docket_order_pipeline)
