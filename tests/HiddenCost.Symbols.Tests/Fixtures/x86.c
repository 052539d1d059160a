/* Source of the x86.exe / x86.pdb fixture (32-bit: C names carry _name, _name@N and @name@N decorations). */
int counter;
__declspec(noinline) int __cdecl plain(int a) { return a + counter; }
__declspec(noinline) int __stdcall standard(int a, int b) { return plain(a) + b; }
__declspec(noinline) int __fastcall fast(int a, int b) { return standard(a, b) * 2; }
int mainCRTStartup(void) { return fast(counter, 3); }
