// Source of the native.exe / native.pdb fixture (x64). Built by build.sh; the outputs are committed.
extern "C" int counter;
int counter;
extern "C" const int table[4] = {1, 2, 3, 4};

namespace shapes
{
    __declspec(noinline) int area(int side) { return side * side + counter; }
    __declspec(noinline) int area(int width, int height) { return width * height + counter; }
}

extern "C" __declspec(noinline) int add(int a, int b) { return a + b + counter; }
extern "C" __declspec(noinline) int twice(int a) { return add(a, a); }
static __declspec(noinline) int hidden(int a) { return twice(a) * 3 + shapes::area(a) + shapes::area(a, 2); }
extern "C" __declspec(noinline) int spin(int n) { int s = 0; for (int i = 0; i < n; i++) s += hidden(i); return s; }
extern "C" int mainCRTStartup(void) { counter = table[2]; return spin(counter); }
