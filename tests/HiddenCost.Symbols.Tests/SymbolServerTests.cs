using System.Diagnostics;
using HiddenCost.Symbols.Resolution;
using HiddenCost.Symbols.Store;
using HiddenCost.Symbols.Tests.Support;

namespace HiddenCost.Symbols.Tests;

/// <summary>Symbol servers over HTTP, served by a real server on 127.0.0.1 from a store folder: nothing leaves the machine.</summary>
[TestClass]
public sealed class SymbolServerTests
{
    private static readonly PdbKey Native = ImageIdentity.Native;

    private static string StoreWith(string fileName, byte[] bytes, PdbKey? key = null)
    {
        var k = key ?? Native;
        var root = Fixtures.TempFolder();
        var folder = Path.Combine(root, k.PdbName, k.Signature);
        Directory.CreateDirectory(folder);
        File.WriteAllBytes(Path.Combine(folder, fileName), bytes);
        return root;
    }

    private static SymbolResolver Resolver(string path, SymbolServerOptions? servers = null, bool offline = false) =>
        new(new SymbolResolverOptions { Path = SymbolPath.Parse(path, _ => null), Servers = servers ?? new SymbolServerOptions(), Offline = offline });

    [TestMethod]
    public void Pdb_is_downloaded_into_the_cache_atomically_and_read_from_there_next_time()
    {
        using var server = new LoopbackSymbolServer(StoreWith("native.pdb", File.ReadAllBytes(Fixtures.Path("native.pdb"))));
        var cache = Fixtures.TempFolder();
        var progress = new List<SymbolDownloadProgress>();
        var options = new SymbolServerOptions { Progress = new SyncProgress(progress) };
        using (var resolver = Resolver($"srv*{cache}*{server.Url}", options))
        {
            Assert.AreEqual("native.exe!add", resolver.Resolve("native.exe", Native, 0x1000 + 24));
            Assert.AreEqual($"{server.Url}/native.pdb/{Native.Signature}/native.pdb", resolver.Statuses.Single().Source);
        }
        var cached = Path.Combine(cache, Native.StorePath);
        CollectionAssert.AreEqual(File.ReadAllBytes(Fixtures.Path("native.pdb")), File.ReadAllBytes(cached));
        Assert.AreEqual(0, Directory.GetFiles(cache, "*.tmp", SearchOption.AllDirectories).Length);
        var done = progress.Single(p => p.Completed);
        Assert.AreEqual(73728, done.BytesReceived);
        Assert.AreEqual(73728L, done.TotalBytes);
        Assert.AreEqual(1, server.Requests.Count);
        using (var again = Resolver($"srv*{cache}*{server.Url}"))
        {
            Assert.AreEqual("native.exe!add", again.Resolve("native.exe", Native, 0x1000 + 24));
            Assert.AreEqual(cached, again.Statuses.Single().Source);
        }
        Assert.AreEqual(1, server.Requests.Count, "the cache answered");
    }

    [TestMethod]
    public void Compressed_pd_is_asked_for_after_the_pdb_and_expanded()
    {
        using var server = new LoopbackSymbolServer(StoreWith("native.pd_", File.ReadAllBytes(Fixtures.Path("native.pd_"))));
        var cache = Fixtures.TempFolder();
        using var resolver = Resolver($"srv*{cache}*{server.Url}");
        Assert.AreEqual("native.exe!twice", resolver.Resolve("native.exe", Native, 0x1000 + 34));
        CollectionAssert.AreEqual(new[] { $"/native.pdb/{Native.Signature}/native.pdb", $"/native.pdb/{Native.Signature}/native.pd_" }, server.Requests.ToArray());
        CollectionAssert.AreEqual(File.ReadAllBytes(Fixtures.Path("native.pdb")), File.ReadAllBytes(Path.Combine(cache, Native.StorePath)));
        Assert.AreEqual(1, Directory.GetFiles(cache, "*", SearchOption.AllDirectories).Length, "the cabinet is not kept");
    }

    [TestMethod]
    public void File_ptr_redirect_to_a_url_is_followed()
    {
        var root = StoreWith("file.ptr", []);
        Directory.CreateDirectory(Path.Combine(root, "elsewhere"));
        File.Copy(Fixtures.Path("native.pdb"), Path.Combine(root, "elsewhere", "n.pdb"));
        using var server = new LoopbackSymbolServer(root);
        File.WriteAllText(Path.Combine(root, "native.pdb", Native.Signature, "file.ptr"), $"PATH:{server.Url}/elsewhere/n.pdb\n");
        using var resolver = Resolver($"srv*{Fixtures.TempFolder()}*{server.Url}");
        Assert.AreEqual("native.exe!spin", resolver.Resolve("native.exe", Native, 0x1000 + 50));
        Assert.AreEqual("/elsewhere/n.pdb", server.Requests.Last());
    }

    [TestMethod]
    public void Html_answer_is_a_miss()
    {
        using var server = new LoopbackSymbolServer(Fixtures.TempFolder());
        server.Overrides[$"/native.pdb/{Native.Signature}/native.pdb"] = (200, "text/html", "<html><body>Sign in</body></html>"u8.ToArray());
        server.Overrides[$"/native.pdb/{Native.Signature}/native.pd_"] = (200, "application/octet-stream", "<!DOCTYPE html><html></html>"u8.ToArray());
        var cache = Fixtures.TempFolder();
        using var resolver = Resolver($"srv*{cache}*{server.Url}");
        var module = resolver.GetModule("native.exe", Native);
        Assert.AreEqual(PdbState.NotFound, module.State);
        StringAssert.Contains(module.Message, "native.pdb: an HTML page, not a PDB");
        StringAssert.Contains(module.Message, "native.pd_: the answer is not a PDB");
        StringAssert.Contains(module.Message, "file.ptr: 404");
        Assert.AreEqual(0, Directory.GetFiles(cache, "*", SearchOption.AllDirectories).Length);
    }

    [TestMethod]
    public void Mismatched_pdb_from_a_server_is_refused()
    {
        using var server = new LoopbackSymbolServer(StoreWith("native.pdb", File.ReadAllBytes(Fixtures.Path("x86.pdb"))));
        using var resolver = Resolver($"srv*{Fixtures.TempFolder()}*{server.Url}");
        Assert.AreEqual(PdbState.Mismatched, resolver.GetModule("native.exe", Native).State);
    }

    [TestMethod]
    public void Server_that_does_not_answer_costs_one_timeout_for_all_images()
    {
        using var server = new LoopbackSymbolServer(Fixtures.TempFolder(), silent: true);
        var options = new SymbolServerOptions { RequestTimeout = TimeSpan.FromSeconds(1), MaxParallelDownloads = 1 };
        using var resolver = Resolver($"srv*{Fixtures.TempFolder()}*{server.Url}", options);
        var images = Enumerable.Range(0, 6).Select(i => ($"image{i}.dll", new PdbKey($"image{i}.pdb", Guid.NewGuid(), 1))).ToList();
        var watch = Stopwatch.StartNew();
        resolver.PreloadAsync(images).GetAwaiter().GetResult();
        watch.Stop();
        Assert.AreEqual(1, server.Connections, "asked once");
        Assert.IsTrue(watch.Elapsed < TimeSpan.FromSeconds(4), $"{watch.Elapsed}");
        Assert.IsTrue(resolver.Statuses.All(s => s.State == PdbState.NotFound));
        Assert.AreEqual(1, resolver.Statuses.Count(s => s.Message!.Contains($"{server.Url}: down (no answer within 1 s)")));
        Assert.AreEqual(5, resolver.Statuses.Count(s => s.Message!.Contains("not asked, it is down")));
        Assert.IsTrue(resolver.DownServers.ContainsKey(server.Url));
    }

    [TestMethod]
    public void Server_refusing_connections_is_down_at_once()
    {
        int port;
        using (var probe = new System.Net.Sockets.TcpListener(System.Net.IPAddress.Loopback, 0))
        {
            probe.Start();
            port = ((System.Net.IPEndPoint)probe.LocalEndpoint).Port;
        }
        using var resolver = Resolver($"srv*{Fixtures.TempFolder()}*http://127.0.0.1:{port}");
        var module = resolver.GetModule("native.exe", Native);
        Assert.AreEqual(PdbState.NotFound, module.State);
        StringAssert.Contains(module.Message, $"http://127.0.0.1:{port}: down (");
    }

    [TestMethod]
    public void Offline_asks_no_server_but_reads_the_cache()
    {
        using var server = new LoopbackSymbolServer(StoreWith("native.pdb", File.ReadAllBytes(Fixtures.Path("native.pdb"))));
        var cache = Fixtures.TempFolder();
        using (var offline = Resolver($"srv*{cache}*{server.Url}", offline: true))
        {
            var module = offline.GetModule("native.exe", Native);
            Assert.AreEqual(PdbState.NotFound, module.State);
            StringAssert.Contains(module.Message, "not asked (offline)");
        }
        Assert.AreEqual(0, server.Requests.Count);
        var folder = Path.Combine(cache, "native.pdb", Native.Signature);
        Directory.CreateDirectory(folder);
        File.Copy(Fixtures.Path("native.pdb"), Path.Combine(folder, "native.pdb"));
        using var cached = Resolver($"srv*{cache}*{server.Url}", offline: true);
        Assert.AreEqual("native.exe!add", cached.Resolve("native.exe", Native, 0x1000 + 30));
        Assert.AreEqual(0, server.Requests.Count);
    }

    [TestMethod]
    public void Downloads_run_in_parallel_within_the_bound()
    {
        var root = Fixtures.TempFolder();
        var images = new List<(string, PdbKey)>();
        for (int i = 0; i < 8; i++)
        {
            var key = new PdbKey($"m{i}.pdb", Guid.NewGuid(), 1);
            Directory.CreateDirectory(Path.Combine(root, key.PdbName, key.Signature));
            File.Copy(Fixtures.Path("native.pdb"), Path.Combine(root, key.PdbName, key.Signature, key.PdbName));
            images.Add(($"m{i}.dll", key));
        }
        using var server = new LoopbackSymbolServer(root) { Delay = TimeSpan.FromMilliseconds(300) };
        using var resolver = Resolver($"srv*{Fixtures.TempFolder()}*{server.Url}", new SymbolServerOptions { MaxParallelDownloads = 3 });
        resolver.PreloadAsync(images).GetAwaiter().GetResult();
        Assert.AreEqual(8, resolver.Statuses.Count(s => s.State == PdbState.Mismatched), "each download arrived (and is another build's PDB)");
        Assert.AreEqual(3, server.MaxInFlight);
    }

    private sealed class SyncProgress(List<SymbolDownloadProgress> list) : IProgress<SymbolDownloadProgress>
    {
        public void Report(SymbolDownloadProgress value)
        {
            lock (list) list.Add(value);
        }
    }
}
