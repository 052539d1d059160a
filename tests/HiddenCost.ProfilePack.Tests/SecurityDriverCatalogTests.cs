using System.Globalization;
using HiddenCost.Analysis.Catalogs;

namespace HiddenCost.ProfilePack.Tests;

[TestClass]
public sealed class SecurityDriverCatalogTests
{
    private static SecurityDriverCatalog Parse(string text) => SecurityDriverCatalog.Parse(new StringReader(text), "bad.tsv");

    [TestMethod]
    public void Shipped_catalogue_holds_1697_modules_from_the_documented_sources()
    {
        var c = SecurityDriverCatalog.Default;
        Assert.AreEqual(1697, c.Count);
        Assert.AreEqual(1667, c.Entries.Count(e => e.Sources.Contains("ALT")));
        Assert.AreEqual(30, c.Entries.Count(e => !e.Sources.Contains("ALT")));
        Assert.AreEqual(41, c.Entries.Count(e => e.Sources.Contains("STACKTAGS")));
        Assert.AreEqual(35, c.Entries.Count(e => e.Sources.Contains("EDRRECON")));
        Assert.AreEqual(23, c.Entries.Count(e => e.Sources.Contains("EDRCHECK")));
        Assert.AreEqual(67, c.Entries.Count(e => e.Sources.Contains("CURATED")));
        Assert.AreEqual(26, c.Entries.Count(e => e.Category == "EDR"));
        Assert.AreEqual(324, c.Entries.Count(e => e.Category == "anti-virus"));
    }

    [TestMethod]
    public void Data_file_on_disk_is_the_embedded_catalogue()
    {
        var onDisk = SecurityDriverCatalog.Load(Pack.Layout.SecurityDrivers);
        CollectionAssert.AreEqual(
            SecurityDriverCatalog.Default.Entries.Select(e => e.Module).ToArray(),
            onDisk.Entries.Select(e => e.Module).ToArray());
    }

    [TestMethod]
    public void Lookup_ignores_case_and_directories_and_finds_the_seed_case_driver()
    {
        Assert.IsTrue(SecurityDriverCatalog.TryGet("TEDRDRV.SYS", out var e));
        Assert.AreEqual("tedrdrv.sys", e.Module);
        Assert.AreEqual("Palo Alto Networks", e.Vendor);
        Assert.AreEqual("Cortex XDR", e.Product);
        Assert.AreEqual("EDR", e.Category);
        CollectionAssert.AreEqual(new[] { "380430" }, e.Altitudes.ToArray());
        Assert.AreEqual("Cortex XDR (Palo Alto Networks)", e.DisplayName);

        Assert.IsTrue(SecurityDriverCatalog.TryGet(@"\SystemRoot\System32\drivers\tedrdrv.sys", out var byPath));
        Assert.AreSame(e, byPath);
        Assert.IsTrue(SecurityDriverCatalog.TryGet(@"C:\Windows\System32\drivers\TedrDrv.Sys", out _));
        Assert.IsFalse(SecurityDriverCatalog.TryGet("ntoskrnl.exe", out var none));
        Assert.IsNull(none);
        Assert.IsFalse(SecurityDriverCatalog.TryGet("tedrdrv", out _));
    }

    [TestMethod]
    public void Well_known_security_drivers_have_vendor_product_and_category()
    {
        var expected = new (string Module, string Vendor, string Product, string Category, string Altitudes)[]
        {
            ("csagent.sys", "CrowdStrike", "Falcon sensor", "EDR", "321410"),
            ("WdFilter.sys", "Microsoft", "Microsoft Defender Antivirus", "anti-virus", "328010"),
            ("mssecflt.sys", "Microsoft", "Microsoft Defender for Endpoint", "EDR", "385600"),
            ("SentinelMonitor.sys", "SentinelOne", "SentinelOne agent", "EDR", "389040"),
            ("SophosED.sys", "Sophos", "Sophos Endpoint Defense (Intercept X)", "EDR", "389220;324050;80670"),
            ("klif.sys", "Kaspersky", "", "anti-virus", "320401;320400"),
            ("ehdrv.sys", "ESET", "", "activity monitor", "387600"),
            ("CyvrFsfd.sys", "Palo Alto Networks", "Cortex XDR / Traps agent", "EDR", "321234"),
            ("cyvrmtgn.sys", "Palo Alto Networks", "Cortex XDR / Traps agent", "EDR", ""),
            ("elastic-endpoint-driver.sys", "Elastic", "Elastic Defend", "EDR", ""),
            ("BEDaisy.sys", "BattlEye Innovations", "BattlEye", "anti-cheat", "363220"),
            ("FileCrypt.sys", "Microsoft", "", "encryption", "141100"),
        };
        foreach (var x in expected)
        {
            Assert.IsTrue(SecurityDriverCatalog.TryGet(x.Module, out var e), x.Module);
            Assert.AreEqual(x.Vendor, e.Vendor, x.Module);
            Assert.AreEqual(x.Product, e.Product, x.Module);
            Assert.AreEqual(x.Category, e.Category, x.Module);
            Assert.AreEqual(x.Altitudes, string.Join(";", e.Altitudes), x.Module);
        }
    }

    [TestMethod]
    public void A_file_name_allocated_to_several_companies_is_one_entry_naming_them_all()
    {
        Assert.IsTrue(SecurityDriverCatalog.TryGet("cssdlp.sys", out var e));
        Assert.AreEqual("Quick Heal Technologies / CoSoSys", e.Vendor);
        Assert.AreEqual(12, SecurityDriverCatalog.Default.Entries.Count(x => x.Vendor.Contains(" / ", StringComparison.Ordinal)));
        Assert.AreEqual(SecurityDriverCatalog.Default.Count,
            SecurityDriverCatalog.Default.Entries.Select(x => x.Module.ToLowerInvariant()).Distinct().Count());
    }

    /// <summary>Load order groups and altitude ranges, learn.microsoft.com "Load order groups and altitudes for minifilter drivers".</summary>
    private static readonly (decimal Low, decimal High, string Category)[] Groups =
    [
        (420000, 429999, "file-system filter"), (400000, 409999, "file-system filter"), (360000, 389999, "activity monitor"),
        (340000, 349999, "undelete"), (320000, 329999, "anti-virus"), (300000, 309999, "replication"),
        (280000, 289999, "continuous backup"), (260000, 269999, "content screener"), (240000, 249999, "quota management"),
        (220000, 229999, "system recovery"), (200000, 209999, "cluster file system"), (180000, 189999, "HSM"),
        (170000, 174999, "imaging"), (160000, 169999, "compression"), (140000, 149999, "encryption"),
        (130000, 139999, "virtualization"), (120000, 129999, "physical quota management"), (100000, 109999, "open file"),
        (80000, 89999, "security enhancer"), (60000, 69999, "copy protection"), (40000, 49999, "file-system filter"),
    ];

    [TestMethod]
    public void Altitude_list_entries_not_curated_carry_the_load_order_group_of_their_first_altitude()
    {
        int checkedEntries = 0;
        foreach (var e in SecurityDriverCatalog.Default.Entries.Where(e => e.Sources.Contains("ALT") && !e.Sources.Contains("CURATED") && !e.Sources.Contains("CASE")))
        {
            var altitude = decimal.Parse(e.Altitudes[0], CultureInfo.InvariantCulture);
            var group = Groups.Single(g => altitude >= g.Low && altitude <= g.High);
            Assert.AreEqual(group.Category, e.Category, $"{e.Module} at {altitude}");
            checkedEntries++;
        }
        Assert.AreEqual(1629, checkedEntries);
    }

    [TestMethod]
    public void Duplicate_module_with_a_conflicting_vendor_names_file_line_and_rule()
    {
        var ex = Assert.ThrowsExactly<CatalogFormatException>(() => Parse(
            "# header\nx.sys\tVendor A\t\tEDR\t\tCASE\nX.SYS\tVendor B\t\tEDR\t\tCASE\n"));
        Assert.AreEqual("bad.tsv", ex.SourceName);
        Assert.AreEqual(3, ex.Line);
        Assert.AreEqual("duplicate-module", ex.Rule);
        StringAssert.StartsWith(ex.Message, "bad.tsv(3): duplicate-module: 'X.SYS' is already defined on line 2 (vendor 'Vendor A')");
    }

    [TestMethod]
    public void Malformed_line_names_file_line_and_rule()
    {
        var ex = Assert.ThrowsExactly<CatalogFormatException>(() => Parse("a.sys\tVendor\tEDR\tCASE\n"));
        Assert.AreEqual(1, ex.Line);
        Assert.AreEqual("field-count", ex.Rule);
        StringAssert.StartsWith(ex.Message, "bad.tsv(1): field-count: expected 6 tab-separated fields");
    }

    [TestMethod]
    public void Bad_fields_are_rejected_with_their_rule()
    {
        (string Line, string Rule)[] cases =
        [
            ("dir\\a.sys\tV\t\tEDR\t\tCASE", "module-name"),
            ("nodot\tV\t\tEDR\t\tCASE", "module-name"),
            ("a.sys\t \t\tEDR\t\tCASE", "empty-vendor"),
            ("a.sys\tV\t\t\t\tCASE", "empty-category"),
            ("a.sys\tV\t\tEDR\t32x\tALT", "altitude"),
            ("a.sys\tV\t\tEDR\t\t", "empty-sources"),
            ("a.sys\tV\t\tEDR\t\tBLOG", "unknown-source"),
            ("a.sys\tV\t\tEDR\t320000\tCASE", "altitude-source"),
        ];
        foreach (var (line, rule) in cases)
        {
            var ex = Assert.ThrowsExactly<CatalogFormatException>(() => Parse("# c\n\n" + line + "\n"), line);
            Assert.AreEqual(rule, ex.Rule, line);
            Assert.AreEqual(3, ex.Line, line);
        }
    }

    [TestMethod]
    public void A_file_without_entries_is_an_error()
    {
        var ex = Assert.ThrowsExactly<CatalogFormatException>(() => Parse("# only comments\n"));
        Assert.AreEqual("empty-catalogue", ex.Rule);
    }
}
