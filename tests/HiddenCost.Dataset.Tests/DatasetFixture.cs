using DuckDB.NET.Data;
using HiddenCost.Cli.Commands;
using HiddenCost.Dataset.Query;
using HiddenCost.Dataset.Storage;
using HiddenCost.TestSupport;

namespace HiddenCost.Dataset.Tests;

/// <summary>Temporary folders of traces and datasets, and the CLI commands run in-process on them.</summary>
internal sealed class DatasetFixture : IDisposable
{
    public DatasetFixture()
    {
        Root = Path.Combine(Path.GetTempPath(), "hiddencost-dataset-tests", Guid.NewGuid().ToString("N"));
        Directory.CreateDirectory(Root);
        Inputs = Directory.CreateDirectory(Path.Combine(Root, "in")).FullName;
        Dataset = Path.Combine(Root, "dataset");
    }

    public string Root { get; }
    public string Inputs { get; }
    public string Dataset { get; }

    /// <summary>The synthetic sample traces shipped in the repository's samples/ folder.</summary>
    public static string[] RepositorySamples() =>
        Directory.GetFiles(Path.Combine(SharedFolder.RepositoryRoot, "samples"), "*.etl").Order(StringComparer.Ordinal).ToArray();

    /// <summary>The real traces of ../shared/etl-samples small enough for a test (the 4–43 MB ones are left to the benchmark).</summary>
    public static string[] SharedTraces() =>
    [
        SharedFolder.EtlSample("etl-parser/AMSITrace.etl"),
        SharedFolder.EtlSample("etl-parser/ShutdownPerfDiagLogger.etl"),
        SharedFolder.EtlSample("etl-parser/lxcore_kernel.etl"),
        SharedFolder.EtlSample("etwanalyzer/EmptyETL.etl"),
        SharedFolder.EtlSample("krabsetw/powershell.etl"),
        SharedFolder.EtlSample("perfview/SelfDescribingSingleEvent.etl"),
        SharedFolder.EtlSample("perfview/gcevents.etl.zip"),
        SharedFolder.EtlSample("perfview/gcrundownevents.etl.zip"),
        SharedFolder.EtlSample("perfview/primitive-types.etl.zip"),
    ];

    /// <summary>Copies traces into the input folder (under <paramref name="subfolder"/>), keeping their names.</summary>
    public void Add(IEnumerable<string> traces, string subfolder = "")
    {
        var folder = Directory.CreateDirectory(Path.Combine(Inputs, subfolder)).FullName;
        foreach (var trace in traces)
        {
            var name = Path.GetFileName(trace);
            File.Copy(trace, Path.Combine(folder, name.EndsWith(".etl", StringComparison.OrdinalIgnoreCase) ? name : name + ".etl"));
        }
    }

    private int _variants;

    /// <summary><paramref name="count"/> copies of the repository samples, each distinct (in content) from every other this fixture made.</summary>
    public void AddVariants(int count, string subfolder = "variants")
    {
        var folder = Directory.CreateDirectory(Path.Combine(Inputs, subfolder)).FullName;
        var samples = RepositorySamples();
        for (int i = 0; i < count; i++)
        {
            var source = samples[i % samples.Length];
            Assert.IsTrue(TraceVariants.Write(source, Path.Combine(folder, $"{i:D4}-{Path.GetFileName(source)}"), ++_variants));
        }
    }

    public (int Exit, string Output, string Errors) Extract(params string[] inputs) => ExtractWith(2, inputs);

    public (int Exit, string Output, string Errors) ExtractWith(int jobs, params string[] inputs)
    {
        var output = new StringWriter();
        var errors = new StringWriter();
        int exit = ExtractCommand.Run(inputs.Length == 0 ? [Inputs] : inputs, Dataset, jobs, output, errors);
        return (exit, output.ToString(), errors.ToString());
    }

    public QueryResult Query(string sql)
    {
        using var query = new DatasetQuery(DatasetFolder.Open(Dataset));
        return query.Run(sql);
    }

    public long Scalar(string sql) => (long)Query(sql).Rows.Single()[0]!;

    /// <summary>Parquet files a folder-reading engine (Spark, Hive) would read: every *.parquet whose name and folders do not start with _ or .</summary>
    public IReadOnlyList<string> VisibleParquet() =>
        Directory.EnumerateFiles(Dataset, "*.parquet", SearchOption.AllDirectories)
            .Where(f => Path.GetRelativePath(Dataset, f).Split(Path.DirectorySeparatorChar).All(p => !p.StartsWith('_') && !p.StartsWith('.')))
            .Order(StringComparer.Ordinal).ToArray();

    public IReadOnlyList<string> HiddenParquet() =>
        Directory.EnumerateFiles(Dataset, "*.parquet", SearchOption.AllDirectories).Except(VisibleParquet()).ToArray();

    /// <summary>A fresh DuckDB connection, for reading files directly.</summary>
    public static DuckDBConnection DuckDb()
    {
        var db = new DuckDBConnection("DataSource=:memory:");
        db.Open();
        using var tz = db.CreateCommand();
        tz.CommandText = "SET TimeZone = 'UTC'";
        tz.ExecuteNonQuery();
        return db;
    }

    public void Dispose()
    {
        try { Directory.Delete(Root, recursive: true); }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException) { }
    }
}
