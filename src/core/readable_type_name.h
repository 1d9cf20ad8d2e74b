// A C++ type's name as its source spells it ("billing::OrderPlaced",
// "docket::JsonCodec<billing::OrderPlaced>"), for errors: type_info::name() is the
// compiler's mangled form ("N7billing11OrderPlacedE"), which no user should have to read.
//
// Thread-safety: a pure function.
#ifndef DOCKET_CORE_READABLE_TYPE_NAME_H_
#define DOCKET_CORE_READABLE_TYPE_NAME_H_

#include <string>
#include <typeindex>

namespace docket::core {

// The demangled name; the mangled one when it cannot be demangled.
std::string readable_type_name(std::type_index type);

}  // namespace docket::core

#endif  // DOCKET_CORE_READABLE_TYPE_NAME_H_
