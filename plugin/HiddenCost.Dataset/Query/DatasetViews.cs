using System.Data.Common;
using HiddenCost.Dataset.Schema;
using HiddenCost.Dataset.Storage;

namespace HiddenCost.Dataset.Query;

/// <summary>
/// One DuckDB view per dataset table, over the files of committed runs only (those their manifests list), showing
/// for each trace the rows of the newest run that extracted it; and <c>latest_runs</c>, that run for each trace (a
/// table taken when the views are made: the views are for one connection's queries, as `hiddencost query` makes).
/// </summary>
public static class DatasetViews
{
    public const string LatestRuns = "latest_runs";

    public static void Create(DbConnection db, DatasetFolder dataset, IReadOnlyList<RunManifest> committed)
    {
        var filesByTable = DatasetSchema.All.ToDictionary(t => t.Name, _ => new List<string>());
        foreach (var run in committed)
            foreach (var file in run.Files)
            {
                var table = file[..file.IndexOf('/')];
                if (filesByTable.TryGetValue(table, out var list)) list.Add(RunManifest.Locate(dataset, file));
            }
        var traces = filesByTable[DatasetSchema.Traces.Name];
        // A table, made once: every view joins it, and a query of two views would otherwise read the traces files twice.
        Execute(db, traces.Count == 0
            ? $"CREATE TEMP TABLE {LatestRuns} AS SELECT CAST(NULL AS VARCHAR) AS trace_id, CAST(NULL AS VARCHAR) AS run_id WHERE false"
            : $"CREATE TEMP TABLE {LatestRuns} AS SELECT trace_id, max(run_id) AS run_id FROM {ReadParquet(traces)} GROUP BY trace_id");
        foreach (var table in DatasetSchema.All)
        {
            var files = filesByTable[table.Name];
            var name = PartWriter.Quote(table.Name);
            Execute(db, files.Count == 0
                ? $"CREATE VIEW {name} AS SELECT {string.Join(", ", table.Columns.Select(c => $"CAST(NULL AS {DatasetTypes.DuckDbName(c.Type)}) AS {PartWriter.Quote(c.Name)}"))} WHERE false"
                : $"CREATE VIEW {name} AS SELECT t.* FROM {ReadParquet(files)} AS t SEMI JOIN {LatestRuns} AS l ON t.trace_id = l.trace_id AND t.run_id = l.run_id");
        }
    }

    /// <summary>read_parquet over the files; by column name, so a run of a later version with more columns reads alongside.</summary>
    private static string ReadParquet(IEnumerable<string> files) =>
        $"read_parquet([{string.Join(", ", files.Select(f => "'" + f.Replace("'", "''") + "'"))}], union_by_name = true)";

    private static void Execute(DbConnection db, string sql)
    {
        using var command = db.CreateCommand();
        command.CommandText = sql;
        command.ExecuteNonQuery();
    }
}
