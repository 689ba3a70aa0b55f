/* What the C test programs share: EXPECT(cond) reports a failed condition and
 * counts it in `failures` (main() returns nonzero when any failed), and
 * ParseDevice reads `--device reference|cpu|gpu` (default cpu). */
#ifndef WEBNN_TESTS_CAPI_TEST_UTIL_H_
#define WEBNN_TESTS_CAPI_TEST_UTIL_H_

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "webnn/webnn_c.h"

static int failures = 0;

#define EXPECT(cond)                                                      \
  do {                                                                    \
    if (!(cond)) {                                                        \
      fprintf(stderr, "%s:%d: failed: %s\n", __FILE__, __LINE__, #cond); \
      ++failures;                                                         \
    }                                                                     \
  } while (0)

static WNNDeviceType ParseDevice(int argc, char** argv) {
  for (int i = 1; i + 1 < argc; ++i) {
    if (strcmp(argv[i], "--device") != 0) continue;
    if (strcmp(argv[i + 1], "reference") == 0) return WNNDeviceType_Reference;
    if (strcmp(argv[i + 1], "cpu") == 0) return WNNDeviceType_Cpu;
    if (strcmp(argv[i + 1], "gpu") == 0) return WNNDeviceType_Gpu;
    fprintf(stderr, "unknown device '%s'\n", argv[i + 1]);
    exit(2);
  }
  return WNNDeviceType_Cpu;
}

#endif
