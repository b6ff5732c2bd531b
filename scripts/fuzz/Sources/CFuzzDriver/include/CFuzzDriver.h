#ifndef MAPWRIGHT_CFUZZDRIVER_H
#define MAPWRIGHT_CFUZZDRIVER_H

// Runs libFuzzer's driver (LLVMFuzzerRunDriver, in the runtime that -sanitize=fuzzer links) on the
// process's arguments, with the LLVMFuzzerTestOneInput the executable defines; returns its status.
int mapwright_fuzz_run(int argc, char **argv);

#endif
