// Transparent huge pages for the trace-reading commands: on this project's VMs a page fault costs
// more than the parsing of the bytes it maps, and a 300 MB trace's model and tree fault ~110,000
// 4 KiB pages (docs/performance.md, "Big traces").
#pragma once

namespace loupe::cli {

// When `argv` reads raw traces of 32 MB of JSON or more (`analyze --trace T [--trace2 T2]`,
// `inspect TRACE`), the kernel gives huge pages on request only (THP "madvise") and glibc's
// malloc was not yet told to ask for them, re-executes this program with
// GLIBC_TUNABLES=glibc.malloc.hugetlb=1 added. Returns (and the caller goes on unchanged) when
// none of this applies or the exec fails; LOUPE_NO_HUGE_PAGES=1 turns it off.
void reexec_with_huge_pages(int argc, char** argv);

}  // namespace loupe::cli
