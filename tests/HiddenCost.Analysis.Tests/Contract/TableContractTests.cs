using System.Text;
using HiddenCost.Analysis.Model;
using HiddenCost.TestSupport;

namespace HiddenCost.Analysis.Tests.Contract;

/// <summary>
/// Every table's full public contract (GUIDs, names, descriptions, column order, types, units, roles, summaries, formats
/// and default views), compared line by line with the committed snapshot <c>table-contract.txt</c>: refactoring the
/// table model must leave it byte for byte as it was. A deliberate addition regenerates the snapshot with
/// <c>HIDDENCOST_UPDATE_GOLDEN=1</c>, and the diff of the snapshot shows what changed.
/// </summary>
[TestClass]
public sealed class TableContractTests
{
    private static string SnapshotPath =>
        Path.Combine(SharedFolder.RepositoryRoot, "tests", "HiddenCost.Analysis.Tests", "Contract", "table-contract.txt");

    [TestMethod]
    public void Every_table_contract_matches_the_committed_snapshot()
    {
        var actual = Describe(TableCatalog.All);
        if (Environment.GetEnvironmentVariable("HIDDENCOST_UPDATE_GOLDEN") == "1")
        {
            File.WriteAllText(SnapshotPath, actual);
            return;
        }
        var expected = File.ReadAllText(SnapshotPath).ReplaceLineEndings("\n");
        var expectedLines = expected.Split('\n');
        var actualLines = actual.Split('\n');
        for (int i = 0; i < Math.Min(expectedLines.Length, actualLines.Length); i++)
            Assert.AreEqual(expectedLines[i], actualLines[i], $"table-contract.txt line {i + 1} differs");
        Assert.AreEqual(expectedLines.Length, actualLines.Length, "table-contract.txt: line count differs");
    }

    private static string Describe(IEnumerable<TableSpec> specs)
    {
        var sb = new StringBuilder();
        foreach (var spec in specs)
        {
            sb.Append($"table {spec.Id:D} \"{spec.Name}\"\n");
            sb.Append($"  category: {spec.Category}\n");
            sb.Append($"  description: {spec.Description}\n");
            for (int i = 0; i < spec.Columns.Count; i++)
            {
                var c = spec.Columns[i];
                sb.Append($"  column {i} {c.Id:D} \"{c.Name}\" type={c.Type} unit={c.Unit} role={c.Role} summary={c.Summary}" +
                          $" summaryOverride={c.SummaryOverride?.ToString() ?? "-"} format={c.Format ?? "-"}\n");
                if (c.Description.Length > 0) sb.Append($"    description: {c.Description}\n");
            }
            var view = spec.DefaultView;
            sb.Append($"  view pivot=[{string.Join(", ", view.PivotColumns)}] graph={view.GraphColumn ?? "-"}" +
                      $" sortDescending=[{string.Join(", ", view.SortDescending ?? Array.Empty<string>())}]\n");
        }
        return sb.ToString();
    }
}
