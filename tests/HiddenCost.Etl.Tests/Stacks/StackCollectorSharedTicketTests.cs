using HiddenCost.Etl.Stacks;

namespace HiddenCost.Etl.Tests.Stacks;

[TestClass]
public sealed class StackCollectorSharedTicketTests
{
    [TestMethod]
    public void Two_requests_for_one_pending_event_share_one_ticket()
    {
        var collector = new StackCollector();
        int first = collector.Expect(timestamp: 1_000, threadId: 42, timeNs: 100);
        int second = collector.Expect(timestamp: 1_000, threadId: 42, timeNs: 100);
        int other = collector.Expect(timestamp: 1_000, threadId: 43, timeNs: 100);
        Assert.AreEqual(first, second);
        Assert.AreNotEqual(first, other);
        Assert.AreEqual(2, collector.TicketCount);
    }
}
