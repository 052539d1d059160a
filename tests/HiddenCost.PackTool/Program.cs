using HiddenCost.Analysis.Catalogs;
using HiddenCost.PackTool;
using HiddenCost.PackTool.Common;
using HiddenCost.PackTool.StackTags;
using HiddenCost.PackTool.WpaProfiles;

// hiddencost-pack: keeps the profile pack's generated parts in step with their data and checks every pack file.
//   stacktags   rewrite the driver section of stacktags/HiddenCost.stacktags from the security-driver catalogue
//   presets     rewrite wpaProfiles/*.wpaProfile from the table lists and preset definitions
//   check       validate wprp/, stacktags/, wpaProfiles/ and the catalogue; exit 1 on any issue
// Options: --root <repository folder> (default: the folder above the current one that holds HiddenCost.slnx).

var command = args.FirstOrDefault(a => !a.StartsWith("--", StringComparison.Ordinal)) ?? "check";
var rootIndex = Array.IndexOf(args, "--root");
RepositoryLayout layout;
try
{
    layout = rootIndex >= 0 && rootIndex + 1 < args.Length
        ? new RepositoryLayout(Path.GetFullPath(args[rootIndex + 1]))
        : RepositoryLayout.Find(Directory.GetCurrentDirectory());
}
catch (DirectoryNotFoundException e)
{
    Console.Error.WriteLine("error: " + e.Message + " (use --root)");
    return 2;
}

try
{
    switch (command)
    {
        case "stacktags":
        {
            var catalog = SecurityDriverCatalog.Load(layout.SecurityDrivers);
            var text = File.ReadAllText(layout.StackTags);
            var updated = DriverTagsGenerator.Replace(text, DriverTagsGenerator.Generate(catalog));
            File.WriteAllText(layout.StackTags, updated);
            Console.WriteLine($"{layout.Display(layout.StackTags)}: {DriverTagsGenerator.Tagged(catalog).Count()} driver tags {(updated == text ? "unchanged" : "written")}");
            return 0;
        }
        case "presets":
        {
            var issues = new List<PackIssue>();
            var ours = TableList.Load(layout.HiddenCostTables, layout.Display(layout.HiddenCostTables), false, issues);
            var wpa = TableList.Load(layout.WpaBuiltInTables, layout.Display(layout.WpaBuiltInTables), true, issues);
            if (Report(issues)) return 1;
            foreach (var file in PresetDefinitions.Build(ours, wpa))
            {
                var path = Path.Combine(layout.WpaProfiles, file.FileName);
                File.WriteAllText(path, PresetWriter.Write(file, PresetDefinitions.StackTagsReference));
                Console.WriteLine($"{layout.Display(path)}: {file.Views.Sum(v => v.Graphs.Count)} graphs");
            }
            return 0;
        }
        case "check":
        {
            var catalog = SecurityDriverCatalog.Load(layout.SecurityDrivers);
            var issues = PackChecks.Wprp(layout).Concat(PackChecks.StackTags(layout, catalog)).Concat(PackChecks.Presets(layout)).ToList();
            if (Report(issues)) return 1;
            Console.WriteLine($"profile pack OK: {RequirementCatalog.Problems.Count} problem profiles, {catalog.Count} catalogue drivers");
            return 0;
        }
        default:
            Console.Error.WriteLine($"unknown command '{command}'; use stacktags, presets or check");
            return 2;
    }
}
catch (CatalogFormatException e)
{
    Console.Error.WriteLine(e.Message);
    return 1;
}

static bool Report(List<PackIssue> issues)
{
    foreach (var i in issues) Console.Error.WriteLine(i);
    return issues.Count > 0;
}
