//===- SiteTypes.cpp - the table of allocated types, pass side ------------===//
//
// Owns the table SiteTypes.h describes, in libmdebugpass.so. Must never
// include Clang headers (opt loads this object without Clang).
//
//===----------------------------------------------------------------------===//

#include "SiteTypes.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Path.h"

#include <map>
#include <tuple>
#include <vector>

using namespace llvm;

namespace mdebug {

namespace {

struct Candidate {
  std::string File;
  std::vector<std::string> Functions;
  std::string Type;
};

/// (line, column) -> the calls the front saw there.
std::map<std::pair<unsigned, unsigned>, std::vector<Candidate>> &table() {
  static std::map<std::pair<unsigned, unsigned>, std::vector<Candidate>> T;
  return T;
}

void clear() { table().clear(); }

void add(const char *File, unsigned Line, unsigned Column,
         const char *const *Functions, size_t NumFunctions, const char *Type) {
  Candidate C;
  C.File = File ? File : "";
  for (size_t I = 0; I < NumFunctions; ++I)
    C.Functions.push_back(Functions[I]);
  C.Type = Type ? Type : "";
  table()[{Line, Column}].push_back(std::move(C));
}

const SiteTypeSink Sink = {clear, add};

/// The front records the presumed file name, the debug location has it
/// split into directory and file: the same file if one ends with the other
/// at a path separator.
bool sameFile(StringRef A, StringRef B) {
  if (A == B)
    return true;
  StringRef Long = A.size() > B.size() ? A : B;
  StringRef Short = A.size() > B.size() ? B : A;
  // substr(), not endswith/ends_with: spelled alike across LLVM 14 to 19.
  return !Short.empty() && Long.substr(Long.size() - Short.size()) == Short &&
         sys::path::is_separator(Long[Long.size() - Short.size() - 1]);
}

/// The one type all of them name, or "".
std::string agreed(const SmallVectorImpl<const Candidate *> &Cs) {
  if (Cs.empty())
    return "";
  for (const Candidate *C : Cs)
    if (C->Type != Cs.front()->Type)
      return "";
  return Cs.front()->Type;
}

} // namespace

const SiteTypeSink *siteTypeSink() { return &Sink; }

std::string siteTypeAt(const std::string &File, unsigned Line, unsigned Column,
                       const std::string &Function) {
  if (!Line)
    return "";
  auto It = table().find({Line, Column});
  if (It == table().end())
    return "";
  SmallVector<const Candidate *, 4> InFile, InFunction;
  for (const Candidate &C : It->second) {
    if (!sameFile(C.File, File))
      continue;
    InFile.push_back(&C);
    for (const std::string &F : C.Functions)
      if (F == Function) {
        InFunction.push_back(&C);
        break;
      }
  }
  return InFunction.empty() ? agreed(InFile) : agreed(InFunction);
}

} // namespace mdebug
