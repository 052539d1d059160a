using HiddenCost.TestSupport;

namespace HiddenCost.Symbols.Tests.Support;

/// <summary>The PDBs the tests read: ones built by <c>Fixtures/build.sh</c> (committed) and the real MSVC PDB in ../shared.</summary>
internal static class Fixtures
{
    public static string Path(string name) => System.IO.Path.Combine(AppContext.BaseDirectory, "Fixtures", name);

    /// <summary><c>../shared/symbols/CppCon.pdb</c> (skips the test when ../shared is absent, fails in CI).</summary>
    public static string CppConPdb => System.IO.Path.Combine(SharedFolder.Require(), "symbols", "CppCon.pdb");

    /// <summary>A fresh empty folder under the temp folder, for stores and caches.</summary>
    public static string TempFolder()
    {
        var path = System.IO.Path.Combine(System.IO.Path.GetTempPath(), "hiddencost-symbols-tests", Guid.NewGuid().ToString("N"));
        Directory.CreateDirectory(path);
        return path;
    }
}
