//===- AllocTypes.h - what each allocation call allocates, from the AST -*- C++ -*-===//
//
// Owns the Clang front's reading of allocated types (in
// libmdebugpass-clang.so): an AST consumer that, once a translation unit's
// AST is complete, finds every allocation call whose source says what it
// allocates and tells the pass through a SiteTypeSink (SiteTypes.h).
//
//===----------------------------------------------------------------------===//

#ifndef MDEBUG_PASS_ALLOCTYPES_H
#define MDEBUG_PASS_ALLOCTYPES_H

#include <memory>

namespace clang {
class ASTConsumer;
} // namespace clang

namespace mdebug {

struct SiteTypeSink;

/// A consumer that clears the sink's table now (a new unit) and fills it
/// in HandleTranslationUnit. With a null sink it does nothing.
std::unique_ptr<clang::ASTConsumer>
createAllocTypeConsumer(const SiteTypeSink *Sink);

} // namespace mdebug

#endif // MDEBUG_PASS_ALLOCTYPES_H
