#!/usr/bin/env bash
# Rebuilds the PDB fixtures: genuine MSF 7.0 PDBs and PE images written by LLVM's clang-cl and lld-link
# (Debian 12: apt-get install clang lld llvm gcab; clang-cl is clang-cl-14 there). /Brepro makes the builds
# reproducible: the same sources give the same GUIDs. No C runtime: the images only need to exist, not run.
# Writes, beside this script:
#   native.exe/.pdb     x64 C++ (overloads, a static function, data in .rdata and .data)
#   native.publics.txt  llvm-pdbutil's dump of its publics: the independent oracle the tests compare with
#   native.pd_          native.pdb in a cabinet with MSZIP compression (what symstore /compress serves), by gcab
#   x86.exe/.pdb        x86 C (cdecl, stdcall and fastcall decorations), and x86.publics.txt
set -euo pipefail
cd "$(dirname "$0")"
cc=$(command -v clang-cl || command -v clang-cl-14)
link=$(command -v lld-link || command -v lld-link-14)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

build() # name source target-flags
{
  "$cc" /nologo /c /Z7 /O1 /GS- /Brepro $3 "$2" /Fo"$work/$1.obj"
  "$link" /nologo /debug /Brepro /nodefaultlib /entry:mainCRTStartup /subsystem:console \
    "$work/$1.obj" /out:"$1.exe" /pdb:"$work/$1.pdb" /pdbaltpath:"$1.pdb"
  cp "$work/$1.pdb" "$1.pdb"
  llvm-pdbutil dump -summary -publics -section-headers "$1.pdb" > "$1.publics.txt"
}

build native native.cpp "--target=x86_64-pc-windows-msvc"
build x86 x86.c "--target=i686-pc-windows-msvc"
rm -f native.pd_
(cd "$work" && cp "$OLDPWD/native.pdb" . && gcab --create --zip "$OLDPWD/native.pd_" native.pdb)
ls -l native.* x86.*
