#include "locale_caches.hpp"

#include <array>
#include <locale>

namespace loupe::core::session {

void fill_ctype_tables() {
  // The range overloads fill the whole table (and mark it complete) on their first call; the
  // one-character overloads the regex compiler uses only read it afterwards.
  const auto& ctype = std::use_facet<std::ctype<char>>(std::locale());
  std::array<char, 256> all{};
  for (std::size_t i = 0; i < all.size(); ++i) all[i] = static_cast<char>(i);
  std::array<char, 256> out{};
  ctype.narrow(all.data(), all.data() + all.size(), '\0', out.data());
  ctype.widen(all.data(), all.data() + all.size(), out.data());
}

}  // namespace loupe::core::session
