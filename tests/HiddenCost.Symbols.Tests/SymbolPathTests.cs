using HiddenCost.Symbols.Store;

namespace HiddenCost.Symbols.Tests;

[TestClass]
public sealed class SymbolPathTests
{
    // A home folder the injected environment names; nothing is read from or written to it.
    private static readonly string Home = Path.Combine(Path.GetTempPath(), "hiddencost-test-home");

    private static readonly Func<string, string?> Env = name => name switch
    {
        "XDG_CACHE_HOME" => "/xdg",
        "HOME" => Home,
        _ => null,
    };

    [TestMethod]
    public void Elements_of_every_kind_are_parsed_in_order()
    {
        var path = SymbolPath.Parse(" /pdbs ; cache*/c1 ;srv*/down*https://msdl.example/download/symbols/;SRV*http://s2;symsrv*symsrv.dll*/d3*https://s3;srv*/local-store;cache*", Env);
        var e = path.Elements;
        Assert.AreEqual(7, e.Count);
        Assert.AreEqual(new FolderElement("/pdbs"), e[0]);
        Assert.AreEqual(new CacheElement("/c1"), e[1]);
        var s1 = (ServerElement)e[2];
        CollectionAssert.AreEqual(new[] { "/down" }, s1.Stores.ToArray());
        Assert.AreEqual("https://msdl.example/download/symbols", s1.Url);
        Assert.AreEqual("/down", s1.Cache);
        var s2 = (ServerElement)e[3];
        Assert.AreEqual("http://s2", s2.Url);
        Assert.AreEqual("/c1", s2.Cache, "a server without its own folder downloads into the first cache*DIR");
        CollectionAssert.AreEqual(new[] { "/c1" }, s2.Stores.ToArray(), "and looks there first");
        var s3 = (ServerElement)e[4];
        CollectionAssert.AreEqual(new[] { "/d3" }, s3.Stores.ToArray());
        Assert.AreEqual("https://s3", s3.Url);
        var local = (ServerElement)e[5];
        Assert.IsNull(local.Url, "srv* of a folder is a store, not a server");
        CollectionAssert.AreEqual(new[] { "/local-store" }, local.Stores.ToArray());
        Assert.AreEqual(new CacheElement("/xdg/hiddencost/symbols"), e[6], "cache* alone is the default cache");
        Assert.IsTrue(path.NamesServer);
        Assert.AreEqual("/c1", path.Cache);
    }

    [TestMethod]
    public void Server_without_any_cache_downloads_into_the_default_cache()
    {
        var path = SymbolPath.Parse("srv*https://s", Env);
        Assert.AreEqual("/xdg/hiddencost/symbols", ((ServerElement)path.Elements[0]).Cache);
        var noXdg = SymbolPath.Parse("srv*https://s", n => n == "HOME" ? Home : null);
        Assert.AreEqual(Path.Combine(Home, ".cache", "hiddencost", "symbols"), ((ServerElement)noXdg.Elements[0]).Cache);
    }

    [TestMethod]
    public void Explicit_path_wins_over_the_environment_and_no_path_means_no_symbols()
    {
        Func<string, string?> env = n => n switch { "_NT_SYMBOL_PATH" => "/env", "_NT_ALT_SYMBOL_PATH" => "/alt", _ => null };
        Assert.AreEqual("/cli", SymbolPath.Resolve("/cli", env)!.Text);
        Assert.AreEqual("/alt;/env", SymbolPath.Resolve(null, env)!.Text);
        Assert.IsNull(SymbolPath.Resolve(null, _ => null));
        Assert.AreEqual(0, SymbolPath.Resolve("  ", n => n == "_NT_SYMBOL_PATH" ? " ; " : null)!.Elements.Count);
        Assert.IsFalse(SymbolPath.Parse("/a;cache*/b", env).NamesServer);
    }
}
