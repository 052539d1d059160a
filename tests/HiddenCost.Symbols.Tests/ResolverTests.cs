using HiddenCost.Symbols.Resolution;
using HiddenCost.Symbols.Store;
using HiddenCost.Symbols.Tests.Support;

namespace HiddenCost.Symbols.Tests;

[TestClass]
public sealed class ResolverTests
{
    private static SymbolResolver Resolver(string path, string cache) =>
        new(new SymbolResolverOptions { Path = SymbolPath.Parse(path, n => n == "XDG_CACHE_HOME" ? cache : null) });

    private static string Store(string root, string pdbName, string signature, string fileName, byte[] bytes)
    {
        var folder = Path.Combine(root, pdbName, signature);
        Directory.CreateDirectory(folder);
        var file = Path.Combine(folder, fileName);
        File.WriteAllBytes(file, bytes);
        return file;
    }

    [TestMethod]
    public void Image_rsds_names_the_built_pdb()
    {
        var key = ImageIdentity.Native;
        Assert.AreEqual("native.pdb", key.PdbName);
        Assert.AreEqual(new Guid("0608B959-9D4F-A73D-4C4C-44205044422E"), key.Guid);
        Assert.AreEqual(1u, key.Age);
        Assert.AreEqual("native.pdb/0608B9599D4FA73D4C4C44205044422E1/native.pdb", key.StorePath);
        Assert.AreEqual(key, new PdbKey(@"C:\build\out\NATIVE.PDB", key.Guid, 1));
    }

    [TestMethod]
    public void Flat_folder_pdb_names_frames_as_module_bang_function()
    {
        var folder = Fixtures.TempFolder();
        File.Copy(Fixtures.Path("native.pdb"), Path.Combine(folder, "native.pdb"));
        using var resolver = Resolver(folder, Fixtures.TempFolder());
        Assert.AreEqual("native.exe!add", resolver.Resolve(@"\Device\HarddiskVolume2\bin\native.exe", ImageIdentity.Native, 0x1000 + 24));
        var module = resolver.GetModule("native.exe", ImageIdentity.Native);
        Assert.AreEqual("native.exe!twice", module.Resolve(0x1000 + 34 + 3));
        Assert.IsNull(module.Resolve(0x2000), "data");
        var status = resolver.Statuses.Single();
        Assert.AreEqual(PdbState.Loaded, status.State);
        Assert.AreEqual(Path.Combine(folder, "native.pdb"), status.Source);
        Assert.AreEqual(8, status.Publics);
        Assert.AreEqual(2, status.FramesResolved);
        Assert.IsTrue(status.LoadMilliseconds > 0);
    }

    [TestMethod]
    public void Store_layout_is_matched_without_regard_to_case()
    {
        var store = Fixtures.TempFolder();
        var key = ImageIdentity.X86;
        Store(store, "X86.PDB", key.Signature.ToLowerInvariant(), "x86.Pdb", File.ReadAllBytes(Fixtures.Path("x86.pdb")));
        using var resolver = Resolver($"srv*{store}", Fixtures.TempFolder());
        Assert.AreEqual("x86.exe!standard", resolver.Resolve("x86.exe", key, 0x1000 + 10));
        Assert.AreEqual("x86.exe!fast", resolver.Resolve("x86.exe", key, 0x1000 + 29));
    }

    [TestMethod]
    public void Compressed_pd_in_a_local_store_is_expanded_into_the_cache()
    {
        var store = Fixtures.TempFolder();
        var cache = Fixtures.TempFolder();
        var key = ImageIdentity.Native;
        Store(store, key.PdbName, key.Signature, "native.pd_", File.ReadAllBytes(Fixtures.Path("native.pd_")));
        using var resolver = Resolver($"cache*{cache};{store}", Fixtures.TempFolder());
        Assert.AreEqual("native.exe!spin", resolver.Resolve("native.exe", key, 0x1000 + 41));
        var expanded = Path.Combine(cache, key.PdbName, key.Signature, key.PdbName);
        CollectionAssert.AreEqual(File.ReadAllBytes(Fixtures.Path("native.pdb")), File.ReadAllBytes(expanded));
        Assert.AreEqual(0, Directory.GetFiles(cache, "*.tmp", SearchOption.AllDirectories).Length);
    }

    [TestMethod]
    public void File_ptr_in_a_local_store_is_followed()
    {
        var store = Fixtures.TempFolder();
        var elsewhere = Path.Combine(Fixtures.TempFolder(), "native.pdb");
        File.Copy(Fixtures.Path("native.pdb"), elsewhere);
        var key = ImageIdentity.Native;
        Store(store, key.PdbName, key.Signature, "file.ptr", System.Text.Encoding.ASCII.GetBytes($"PATH:{elsewhere}\r\n"));
        using var resolver = Resolver(store, Fixtures.TempFolder());
        Assert.AreEqual("native.exe!mainCRTStartup", resolver.Resolve("native.exe", key, 0x1000 + 140));
        Assert.AreEqual(elsewhere, resolver.Statuses.Single().Source);
    }

    [TestMethod]
    public void Pdb_of_another_build_is_refused_as_mismatched()
    {
        var folder = Fixtures.TempFolder();
        File.Copy(Fixtures.Path("x86.pdb"), Path.Combine(folder, "native.pdb")); // right name, wrong identity
        using var resolver = Resolver(folder, Fixtures.TempFolder());
        Assert.IsNull(resolver.Resolve("native.exe", ImageIdentity.Native, 0x1000 + 24));
        var status = resolver.Statuses.Single();
        Assert.AreEqual(PdbState.Mismatched, status.State);
        StringAssert.Contains(status.Message, $"is GUID {ImageIdentity.X86.Guid:D} age 1");
        var otherAge = new PdbKey("native.pdb", ImageIdentity.Native.Guid, 2);
        File.Copy(Fixtures.Path("native.pdb"), Path.Combine(folder, "native.pdb"), overwrite: true);
        Assert.AreEqual(PdbState.Mismatched, resolver.GetModule("native.exe", otherAge).State, "same GUID, other age");
    }

    [TestMethod]
    public void Corrupt_matching_pdb_is_unreadable_with_a_message_naming_it()
    {
        var folder = Fixtures.TempFolder();
        var bytes = File.ReadAllBytes(Fixtures.Path("native.pdb"));
        var path = Path.Combine(folder, "native.pdb");
        File.WriteAllBytes(path, bytes[..30000]);
        using var resolver = Resolver(folder, Fixtures.TempFolder());
        var module = resolver.GetModule("native.exe", ImageIdentity.Native);
        Assert.AreEqual(PdbState.Unreadable, module.State);
        StringAssert.StartsWith(module.Message, path + ": truncated");
        Assert.IsNull(module.Resolve(0x1000));
    }

    [TestMethod]
    public void Missing_pdb_and_no_path_are_not_found()
    {
        using (var resolver = Resolver(Fixtures.TempFolder(), Fixtures.TempFolder()))
        {
            var module = resolver.GetModule("native.exe", ImageIdentity.Native);
            Assert.AreEqual(PdbState.NotFound, module.State);
            Assert.AreEqual("not on the symbol path", module.Message);
        }
        using var none = new SymbolResolver(new SymbolResolverOptions());
        Assert.IsNull(none.Resolve("native.exe", ImageIdentity.Native, 0x1000));
        Assert.AreEqual(PdbState.NotFound, none.Statuses.Single().State);
    }

    [TestMethod]
    public void Each_pdb_is_loaded_once_for_many_lookups_from_many_threads()
    {
        var folder = Fixtures.TempFolder();
        File.Copy(Fixtures.Path("native.pdb"), Path.Combine(folder, "native.pdb"));
        using var resolver = Resolver(folder, Fixtures.TempFolder());
        Parallel.For(0, 1000, i => Assert.AreEqual("native.exe!add", resolver.Resolve("native.exe", ImageIdentity.Native, 0x1000 + 24 + (uint)(i % 10))));
        var status = resolver.Statuses.Single();
        Assert.AreEqual(1000, status.FramesResolved);
        Assert.AreSame(resolver.GetModule("NATIVE.EXE", ImageIdentity.Native), resolver.GetModule("native.exe", ImageIdentity.Native));
    }
}
