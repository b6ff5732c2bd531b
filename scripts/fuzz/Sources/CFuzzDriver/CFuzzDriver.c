// SwiftPM links an executable target with `--defsym main=<Target>_main`, so libFuzzer's own main()
// is never linked in; each target's @main calls this instead, which hands over to libFuzzer's
// documented driver entry point with the executable's LLVMFuzzerTestOneInput.
#include "CFuzzDriver.h"

#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int mapwright_fuzz_run(int argc, char **argv) {
    return LLVMFuzzerRunDriver(&argc, &argv, LLVMFuzzerTestOneInput);
}
