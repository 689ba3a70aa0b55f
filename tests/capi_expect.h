/* The C test programs' check: EXPECT(cond) reports a failed condition and
 * counts it in `failures`; main() returns nonzero when any failed. */
#ifndef WEBNN_TESTS_CAPI_EXPECT_H_
#define WEBNN_TESTS_CAPI_EXPECT_H_

#include <stdio.h>

static int failures = 0;

#define EXPECT(cond)                                                      \
  do {                                                                    \
    if (!(cond)) {                                                        \
      fprintf(stderr, "%s:%d: failed: %s\n", __FILE__, __LINE__, #cond); \
      ++failures;                                                         \
    }                                                                     \
  } while (0)

#endif
