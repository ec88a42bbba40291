// How the executables ask the C library's allocator to keep memory between searches.
#pragma once

namespace lf {

// The Optimus DP (and the explorer) allocate tens of megabytes per search and free them at
// its end. glibc's allocator then gives memory back to the system once more than twice its
// largest recent block is free at the top of its heap, and the next search maps every page
// afresh: GoogLeNet's DP on `optimus-config-5` spent about a quarter of its time in page
// faults so. This keeps up to 256 MB of freed memory in the process, and maps blocks of its
// own only from 64 MB up. Called first thing by layerfuse, layerfuse-cli and the search
// benchmarks; a no-op where the C library is not glibc.
void keepFreedMemory();

} // namespace lf
