// The subset of JSON Schema (2020-12) the project's shipped schemas use (docs/schemas/): type,
// const, enum, minimum, maximum, pattern, minItems, maxItems, required, properties,
// additionalProperties (as a schema), items and local "$ref": "#/$defs/<name>". Enough to check a
// document against them in tests; a keyword outside this subset is reported, so a schema cannot
// silently stop being checked.
#pragma once

#include <string>
#include <vector>

#include <rapidjson/document.h>

namespace loupe::test {

// Every place `doc` breaks `schema`, as "<json pointer>: <problem>"; empty when it conforms.
std::vector<std::string> schema_problems(const rapidjson::Value& schema,
                                         const rapidjson::Value& doc);

}  // namespace loupe::test
