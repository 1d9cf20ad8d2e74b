# The Firestore provider's conformance fixtures, one file per suite it runs
# (docket_conformance(), tests/conformance/provider_fixtures.cmake). Test code only.
# Each fixture works under a collection prefix of its own on the Firestore emulator of
# DOCKET_TEST_FIRESTORE_URL (docket_test_firestore).
docket_conformance(claim claim_fixture.cc LINK docket_test_firestore)
