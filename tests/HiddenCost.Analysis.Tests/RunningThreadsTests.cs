using HiddenCost.Analysis.Pipeline;

namespace HiddenCost.Analysis.Tests;

[TestClass]
public sealed class RunningThreadsTests
{
    [TestMethod]
    public void A_switch_reported_again_by_another_analysis_gives_the_state_before_it_and_counts_once()
    {
        var running = new RunningThreads();
        Assert.AreEqual(new SwitchedFrom(false, null), running.Switch(100, 2, newThread: 7, oldThread: 0));
        Assert.AreEqual(new SwitchedFrom(true, 100), running.Switch(250, 2, newThread: 9, oldThread: 7));
        Assert.AreEqual(new SwitchedFrom(true, 100), running.Switch(250, 2, newThread: 9, oldThread: 7), "the same switch, reported by a second analysis");
        Assert.AreEqual(2, running.Switches);
        Assert.AreEqual(9, running.Running(2));
        Assert.AreEqual(250L, running.RunningSince(2, 9));
        Assert.IsNull(running.RunningSince(2, 7));
    }

    [TestMethod]
    public void A_processor_without_a_switch_has_no_known_thread_until_one_is_seen_logging_there()
    {
        var running = new RunningThreads();
        Assert.IsFalse(running.HasSwitched(1));
        Assert.AreEqual(-1, running.Running(1));
        running.Seen(40, 1, 12);
        Assert.AreEqual(12, running.Running(1));
        Assert.AreEqual(40L, running.RunningSince(12));
        Assert.IsFalse(running.HasSwitched(1), "an event shows who runs there, not that the kernel session's switches are in the trace");
        Assert.AreEqual(new SwitchedFrom(false, 40), running.Switch(90, 1, newThread: 13, oldThread: 12));
    }
}
