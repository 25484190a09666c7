//===- SiteTypes.h - allocated types, from the Clang front to the pass -*- C++ -*-===//
//
// Owns the hand-off of allocated types: the -fplugin front
// (libmdebugpass-clang.so, AllocTypes.cpp) sees the AST and knows that the
// malloc at list.c:12:15 allocates a `struct node`; the pass
// (libmdebugpass.so, MdebugPass.cpp) sees only IR, where that is an i64.
// Both run in the same clang process, one translation unit at a time: the
// front fills this table when the unit's AST is complete (its consumer runs
// before the code generator's, which is where the pass runs) and clears it
// when the next unit starts. The table lives in libmdebugpass.so; the front
// reaches it through the plain C functions of SiteTypeSink, handed over when
// libmdebugpass.so loads it (Plugin.h).
//
// A call is found by what both sides know of it: the expansion location
// Clang gives its debug location (file, line, column of the callee's name
// or of `new`) and the linkage name of the function holding it, since the
// instantiations of a template share a location but not a function. With
// no debug location (no -g, no -Rpass=mdebug, no -gline-tables-only), or
// through -fpass-plugin= or opt alone, no type is known: sites say nothing
// of a type, as before.
//
//===----------------------------------------------------------------------===//

#ifndef MDEBUG_PASS_SITETYPES_H
#define MDEBUG_PASS_SITETYPES_H

#include <stddef.h>

#include <string>

namespace mdebug {

/// What the front calls, across the two objects (plain C types only).
struct SiteTypeSink {
  /// A new translation unit: forget the last one's calls.
  void (*Clear)();
  /// The call at File:Line:Column, inside any of the functions named
  /// (their IR names; none for a global initialiser), allocates Type.
  void (*Add)(const char *File, unsigned Line, unsigned Column,
              const char *const *Functions, size_t NumFunctions,
              const char *Type);
};

/// The sink libmdebugpass.so hands to the front.
const SiteTypeSink *siteTypeSink();

/// The type the front found for the call at File:Line:Column in the IR
/// function Function, or "" if it found none or the candidates disagree.
std::string siteTypeAt(const std::string &File, unsigned Line, unsigned Column,
                       const std::string &Function);

} // namespace mdebug

#endif // MDEBUG_PASS_SITETYPES_H
