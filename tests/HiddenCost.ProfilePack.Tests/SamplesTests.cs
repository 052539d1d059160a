using HiddenCost.Analysis.Catalogs;

namespace HiddenCost.ProfilePack.Tests;

[TestClass]
public sealed class SamplesTests
{
    private static readonly (string Sample, string Profile)[] Samples =
        [("SyscallStorm", "SysCall"), ("SpinContention", "SpinWait"), ("NotifyStorm", "DirNotify"), ("EventLogRead", "EventLog")];

    private static string SampleFile(string sample, string file) => Path.Combine(Pack.Layout.Root, "samples", sample, file);

    [TestMethod]
    public void Each_reproducer_readme_and_usage_give_the_wpr_lines_of_its_profile()
    {
        foreach (var (sample, profile) in Samples)
        {
            var problem = RequirementCatalog.ForProfile(profile)!;
            var readme = Pack.Read(SampleFile(sample, "README.md"));
            StringAssert.Contains(readme, $@"wpr -start wprp\{problem.ProfileReference} -filemode", sample);
            StringAssert.Contains(readme, "wpr -stop ", sample);
            StringAssert.Contains(readme, $@"-profile wpaProfiles\{profile}.wpaProfile", sample);
            StringAssert.Contains(readme, problem.TableName, sample);
            StringAssert.Contains(Pack.Read(SampleFile(sample, "Program.cs")), problem.WprStartCommand + " -filemode", sample);
            Assert.IsTrue(File.Exists(Path.Combine(Pack.Layout.WpaProfiles, profile + ".wpaProfile")), profile);
        }
    }

    [TestMethod]
    public void Reproducers_are_in_the_solution_so_CI_builds_them()
    {
        var solution = Pack.Read(Path.Combine(Pack.Layout.Root, "HiddenCost.slnx"));
        foreach (var (sample, _) in Samples)
            StringAssert.Contains(solution, $"<Project Path=\"samples/{sample}/{sample}.csproj\" />", sample);
    }
}
