using System.Text.Json;
using HiddenCost.Cli;
using HiddenCost.Cli.Output;
using HiddenCost.Symbols.Resolution;

namespace HiddenCost.Cli.Tests;

/// <summary><c>--symbols</c> and <c>--offline</c>: a symbol path without matching PDBs changes no figure, and says what is missing.</summary>
[TestClass]
public sealed class CliSymbolsTests
{
    [TestMethod]
    public void No_symbol_path_means_no_resolver()
    {
        if (Environment.GetEnvironmentVariable("_NT_SYMBOL_PATH") is not null || Environment.GetEnvironmentVariable("_NT_ALT_SYMBOL_PATH") is not null)
            Assert.Inconclusive("skipped: this environment sets a symbol path");
        Assert.IsNull(CliSymbols.Create(null, offline: false));
    }

    [TestMethod]
    public void Symbol_path_without_the_traces_pdbs_leaves_the_rows_as_they_were_and_names_the_missing_pdb()
    {
        // The bundled synthetic sample: its Syscall Hook rows ask for ntoskrnl.exe's symbols.
        var trace = CliRunner.TracesOrSample([]).Single();
        var folder = Path.Combine(Path.GetTempPath(), "hiddencost-cli-symbols-" + Guid.NewGuid().ToString("N"));
        Directory.CreateDirectory(folder);
        using var symbols = CliSymbols.Create($"{folder};srv*{folder}*http://127.0.0.1:9", offline: true)!;
        Assert.IsTrue(symbols.Options.Offline);
        string Run(SymbolResolver? resolver)
        {
            var output = new StringWriter();
            int exit = new CliRunner(output, new StringWriter(), interactive: false) { Symbols = resolver }.Run([trace], [], OutputFormat.Json);
            Assert.AreEqual(0, exit);
            return output.ToString();
        }
        using var without = JsonDocument.Parse(Run(null));
        using var with = JsonDocument.Parse(Run(symbols));
        var before = without.RootElement.EnumerateArray().Single().GetProperty("tables").EnumerateArray().ToList();
        var after = with.RootElement.EnumerateArray().Single().GetProperty("tables").EnumerateArray().ToList();
        Assert.AreEqual(before.Count, after.Count);
        for (int i = 0; i < before.Count; i++)
        {
            var name = before[i].GetProperty("name").GetString();
            // Symbols says what became of each PDB: without a path "not found"/"not needed", with one where it was looked for.
            if (name == "Symbols") continue;
            Assert.AreEqual(before[i].GetProperty("rows").GetRawText(), after[i].GetProperty("rows").GetRawText(), name);
            var notesBefore = before[i].GetProperty("notes").EnumerateArray().Select(n => n.ToString()).ToList();
            var added = after[i].GetProperty("notes").EnumerateArray().Select(n => n.ToString()).Except(notesBefore).ToList();
            if (name == "CPU by Function")
            {
                // CPU by Function names the PDBs of the sampled images that did not load, the kernel's among them.
                StringAssert.StartsWith(added.Single(), "Native functions stay module+0xRVA where their PDB did not load: ");
                continue;
            }
            // The one difference: the tables that name native frames (Syscall Hook's syscalls and Top Stack, Spin-Wait's
            // spin functions and call sites, Directory Notify's Notify CPU) say which PDBs would name them, and why they did not load.
            if (name is not ("Syscall Hook Overhead" or "Spin-Wait Cost per Lock" or "Spin-Wait by Process" or "Directory Notify Victims"))
            {
                Assert.AreEqual(0, added.Count, name);
                continue;
            }
            if (added.Count == 0) continue; // a table with nothing asked of the symbols has no note
            var note = added.Single();
            StringAssert.Contains(note, " stay module+0xRVA where their PDB did not load: ", name);
            StringAssert.EndsWith(note, "not found: not on the symbol path (http://127.0.0.1:9: not asked (offline)).", name);
            if (name is "Syscall Hook Overhead" or "Directory Notify Victims")
                StringAssert.Contains(note, "ntoskrnl.exe needs ntkrnlmp.pdb/", name);
        }
        var asked = string.Join("\n", symbols.Statuses.Select(s => $"{s.ImageFileName} {s.Pdb} {s.State} {s.Message}"));
        Assert.IsTrue(symbols.Statuses.Any(s => s.ImageFileName == "ntoskrnl.exe"), asked);
        foreach (var status in symbols.Statuses)
        {
            Assert.AreEqual(PdbState.NotFound, status.State, asked);
            StringAssert.Contains(status.Message, "http://127.0.0.1:9: not asked (offline)");
        }
    }
}
