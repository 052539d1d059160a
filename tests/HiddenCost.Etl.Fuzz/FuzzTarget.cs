namespace HiddenCost.Etl.Fuzz;

/// <summary>
/// What one fuzzer input goes through: open it as a trace and read every event, touching each span the way a
/// consumer would, then the header-only walk. Rejection with <see cref="EtlFormatException"/> is a fine
/// answer; any other exception escapes, and the fuzzer records the input as a crash.
/// </summary>
internal static class FuzzTarget
{
    public enum Result { Rejected, Read }

    public static Result Run(byte[] input)
    {
        EtlReader reader;
        try
        {
            reader = EtlReader.Open(input, "fuzz-input.etl");
        }
        catch (EtlFormatException)
        {
            return Result.Rejected;
        }
        using (reader)
        {
            long sum = 0;
            foreach (var e in reader.ReadEvents())
            {
                var payload = e.Payload;
                sum += e.TimeNs + e.ThreadId + e.ProcessId + e.Cpu + payload.Length + e.ExtendedData.Length;
                if (payload.Length > 0) sum += payload[0] + payload[^1];
            }
            sum += reader.CountRecordsInFileOrder();
            GC.KeepAlive(sum);
            return Result.Read;
        }
    }
}
