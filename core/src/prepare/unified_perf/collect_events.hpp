#pragma once
#include "loupe/core/prepare/unified_perf_events.hpp"
