using System.Buffers.Binary;
using HiddenCost.Etl.Buffers;
using HiddenCost.Etl.Tests.Support;

namespace HiddenCost.Etl.Tests;

/// <summary>
/// Files that are not traces fail with an <see cref="EtlFormatException"/> naming the file and the offset;
/// traces damaged after their header deliver every event before (and around) the damage and say where it is.
/// Each damaged copy is made from a real sample at an exact place found by the test's own walker.
/// </summary>
[TestClass]
public sealed class BadInputTests
{
    [TestMethod]
    public void Empty_file_is_rejected_naming_file_and_offset()
    {
        var path = Samples.PathOf(Samples.EmptyEtl);
        var e = Assert.ThrowsExactly<EtlFormatException>(() => EtlReader.Open(path));
        Assert.AreEqual(path, e.FilePath);
        Assert.AreEqual(0L, e.Offset);
        StringAssert.Contains(e.Reason, "empty file");
        StringAssert.StartsWith(e.Message, path + ": offset 0x0: ");
    }

    [TestMethod]
    public void Missing_file_and_folder_are_rejected_with_the_path()
    {
        var missing = Path.Combine(Path.GetTempPath(), "hiddencost-tests", Guid.NewGuid() + ".etl");
        var e = Assert.ThrowsExactly<EtlFormatException>(() => EtlReader.Open(missing));
        Assert.AreEqual(missing, e.FilePath);
        Assert.AreEqual("file not found", e.Reason);
        var folder = Path.GetDirectoryName(Samples.PathOf(Samples.Powershell))!;
        var notAFile = Assert.ThrowsExactly<EtlFormatException>(() => EtlReader.Open(folder));
        Assert.AreEqual(folder, notAFile.FilePath);
        Assert.AreEqual("a directory, not an ETL trace file", notAFile.Reason, "not .NET's \"Access to the path is denied\"");
        Assert.AreEqual("no file name given", Assert.ThrowsExactly<EtlFormatException>(() => EtlReader.Open("")).Reason);
    }

    /// <summary>On Linux the reader opens without waiting and looks at what it opened; on macOS it looks at the length first.</summary>
    private static string PipeReason => OperatingSystem.IsLinux()
        ? "a pipe or FIFO, not a file: a trace is read at offsets, which only a file gives; save it to a file and name that"
        : "empty file (0 bytes), or not a file (a pipe or device): not an ETL trace";

    [TestMethod]
    public void A_pipe_with_no_writer_is_rejected_at_once_instead_of_waiting_for_one()
    {
        if (OperatingSystem.IsWindows()) Assert.Inconclusive("named pipes in the file system are a POSIX feature");
        var dir = Directory.CreateTempSubdirectory("hiddencost-pipe-");
        try
        {
            var fifo = Path.Combine(dir.FullName, "trace.etl");
            using (var mkfifo = System.Diagnostics.Process.Start("mkfifo", fifo)) mkfifo.WaitForExit();
            // Opening a pipe for reading waits for a writer; none comes here, so the reader must not open it.
            var open = Task.Run(() => EtlReader.Open(fifo));
            bool ended = Task.WhenAny(open, Task.Delay(TimeSpan.FromSeconds(30))).Result == open;
            if (!ended) File.WriteAllBytes(fifo, Array.Empty<byte>()); // a writer at last, so the waiting open ends
            Assert.IsTrue(ended, "the reader waited for a writer");
            var e = Assert.IsInstanceOfType<EtlFormatException>(open.Exception?.InnerException);
            Assert.AreEqual(0L, e.Offset);
            Assert.AreEqual(PipeReason, e.Reason);

            // Named through a symbolic link: the link's own length is not the pipe's.
            var link = Path.Combine(dir.FullName, "link.etl");
            File.CreateSymbolicLink(link, fifo);
            var viaLink = Task.Run(() => EtlReader.Open(link));
            ended = Task.WhenAny(viaLink, Task.Delay(TimeSpan.FromSeconds(30))).Result == viaLink;
            if (!ended) File.WriteAllBytes(fifo, Array.Empty<byte>());
            Assert.IsTrue(ended, "the reader waited for a writer through the link");
            Assert.AreEqual(PipeReason, Assert.IsInstanceOfType<EtlFormatException>(viaLink.Exception?.InnerException).Reason);
        }
        finally
        {
            dir.Delete(recursive: true);
        }
    }

    [TestMethod]
    public void A_file_cut_inside_its_first_buffer_says_so()
    {
        var bytes = Samples.Bytes(Samples.Powershell)[..5000]; // its buffers are 8,192 bytes
        var e = Assert.ThrowsExactly<EtlFormatException>(() => EtlReader.Open(bytes, "cut.etl"));
        Assert.AreEqual("the file ends inside its first buffer (5000 of 8192 bytes): cut short, or not an ETL file", e.Reason);
    }

    [TestMethod]
    [DataRow("text", DisplayName = "a text file")]
    [DataRow("zip", DisplayName = "a zip archive")]
    [DataRow("random", DisplayName = "random bytes")]
    [DataRow("zeros", DisplayName = "zeros")]
    [DataRow("ones", DisplayName = "0xFF bytes")]
    [DataRow("tiny", DisplayName = "10 bytes")]
    [DataRow("header-only", DisplayName = "a buffer header and nothing after it")]
    [DataRow("no-header-event", DisplayName = "a buffer whose first record is not the trace header")]
    public void Files_that_are_not_traces_are_rejected_naming_file_and_offset(string kind)
    {
        var random = new Random(8);
        byte[] bytes = kind switch
        {
            "text" => File.ReadAllBytes(Path.Combine(Path.GetDirectoryName(Samples.PathOf(Samples.Powershell))!, "..", "README.md")),
            "zip" => File.ReadAllBytes(Path.Combine(Path.GetDirectoryName(Samples.PathOf(Samples.Powershell))!, "..", "perfview", "gcevents.etl.zip")),
            "random" => RandomBytes(random, 100_000),
            "zeros" => new byte[65536],
            "ones" => Enumerable.Repeat((byte)0xFF, 65536).ToArray(),
            "tiny" => RandomBytes(random, 10),
            "header-only" => Samples.Bytes(Samples.Powershell)[..(BufferHeader.Size + 40)],
            "no-header-event" => WithoutHeaderEvent(Samples.Bytes(Samples.Powershell)),
            _ => throw new ArgumentException(kind),
        };
        using var file = TempFile.With(bytes, kind + ".etl");
        var e = Assert.ThrowsExactly<EtlFormatException>(() => EtlReader.Open(file.Path));
        Assert.AreEqual(file.Path, e.FilePath);
        Assert.IsTrue(e.Offset >= 0 && e.Offset < Math.Max(bytes.Length, 1), $"offset {e.Offset}");
        Assert.IsFalse(string.IsNullOrWhiteSpace(e.Reason));
    }

    [TestMethod]
    public void Truncation_inside_a_buffer_delivers_the_whole_buffers_before_it()
    {
        var original = Samples.Bytes(Samples.ShutdownPerfDiagLogger);
        var buffers = RawLayout.Buffers(original);
        var cut = buffers[20];
        int expected = buffers.Take(20).Sum(b => RawLayout.Records(original, b).Count);
        using var copy = TempFile.With(original.AsSpan(0, (int)cut.Offset + 1000));

        using var reader = EtlReader.Open(copy.Path);
        Assert.AreEqual(expected, Count(reader));
        Assert.IsTrue(reader.Health.Truncated);
        Assert.AreEqual(1, reader.Health.Warnings.Count);
        Assert.AreEqual(cut.Offset, reader.Health.Warnings[0].Offset);
        StringAssert.Contains(reader.Health.Warnings[0].Message, "file ends inside a 65536-byte buffer (1000 bytes present)");
        Assert.AreEqual(reader.Health.Warnings[0], reader.Health.FirstDamage, "a cut file is damaged");
    }

    [TestMethod]
    public void Truncation_inside_a_buffer_header_is_reported_at_its_offset()
    {
        var original = Samples.Bytes(Samples.Powershell);
        var buffers = RawLayout.Buffers(original);
        using var copy = TempFile.With(original.AsSpan(0, (int)buffers[3].Offset + 10));
        using var reader = EtlReader.Open(copy.Path);
        Assert.AreEqual(buffers.Take(3).Sum(b => RawLayout.Records(original, b).Count), Count(reader));
        Assert.IsTrue(reader.Health.Truncated);
        Assert.AreEqual(buffers[3].Offset, reader.Health.Warnings[0].Offset);
    }

    [TestMethod]
    [DataRow(0xFFFF, "runs past the buffer's end", DisplayName = "record size past the buffer end")]
    [DataRow(4, "smaller than its", DisplayName = "record size below its header")]
    [DataRow(-1, "unknown record header type 119", DisplayName = "unknown header kind")]
    public void A_damaged_record_loses_only_the_rest_of_its_buffer(int newSize, string reason)
    {
        var original = Samples.Bytes(Samples.ShutdownPerfDiagLogger);
        var buffers = RawLayout.Buffers(original);
        var buffer = buffers[7];
        var records = RawLayout.Records(original, buffer);
        var target = records[10];
        int total = buffers.Sum(b => RawLayout.Records(original, b).Count);

        using var copy = Samples.Copy(Samples.ShutdownPerfDiagLogger, bytes =>
        {
            var r = bytes.AsSpan((int)target.Offset);
            if (newSize < 0) r[2] = 119;
            else BinaryPrimitives.WriteUInt16LittleEndian(r[(target.HeaderType is 1 or 2 or 3 or 4 or 16 or 17 ? 4 : 0)..], (ushort)newSize);
            return bytes;
        });
        using var reader = EtlReader.Open(copy.Path);
        Assert.AreEqual(total - (records.Count - 10), Count(reader));
        Assert.AreEqual(1L, reader.Health.DamagedBuffers);
        Assert.AreEqual(buffer.Offset, reader.Health.Warnings.Single().Offset);
        StringAssert.Contains(reader.Health.Warnings[0].Message, $"record at buffer offset 0x{target.Offset - buffer.Offset:X}");
        StringAssert.Contains(reader.Health.Warnings[0].Message, reason);
        Assert.AreEqual(reader.Health.Warnings[0], reader.Health.FirstDamage);
    }

    [TestMethod]
    public void A_file_cut_at_a_buffer_boundary_is_damage_by_the_headers_count_of_buffers_written()
    {
        var original = Samples.Bytes(Samples.ShutdownPerfDiagLogger);
        var buffers = RawLayout.Buffers(original);
        Assert.AreEqual(49, buffers.Count);
        using var copy = Samples.Copy(Samples.ShutdownPerfDiagLogger, bytes => bytes[..(int)buffers[20].Offset]);
        using var reader = EtlReader.Open(copy.Path);
        Assert.AreEqual(buffers.Take(20).Sum(b => RawLayout.Records(original, b).Count), Count(reader), "the 20 buffers are read");
        var warning = reader.Health.Warnings.Single();
        Assert.AreEqual(buffers[20].Offset, warning.Offset, "where the file ends");
        Assert.AreEqual("the trace header says 49 buffers were written, the file holds 20: it ends early, at a buffer boundary", warning.Message);
        Assert.IsTrue(reader.Health.IsDamaged);
        Assert.IsTrue(reader.Health.Truncated);

        // A circular file that wrapped holds fewer buffers than were written into it: that is no cut.
        // (ShutdownPerfDiagLogger's LogFileMode, 0x2000080, is at 0x68 + 32.)
        using var circular = Samples.Copy(Samples.ShutdownPerfDiagLogger, bytes =>
        {
            var cut = bytes[..(int)buffers[20].Offset];
            BinaryPrimitives.WriteUInt32LittleEndian(cut.AsSpan(0x68 + 32), 0x2000080 | 0x2);
            return cut;
        });
        using var wrapped = EtlReader.Open(circular.Path);
        Count(wrapped);
        Assert.AreEqual(0, wrapped.Health.Warnings.Count, string.Join("; ", wrapped.Health.Warnings));
    }

    [TestMethod]
    public void Indexing_stops_at_the_buffer_limit_with_damage_so_a_file_of_tiny_buffers_cannot_take_memory_without_bound()
    {
        // The limit is 8,388,608 buffers; lowered here to 10 of powershell.etl's 26 (8,192 bytes each).
        var original = Samples.Bytes(Samples.Powershell);
        var buffers = RawLayout.Buffers(original);
        long inFirstTen = buffers.Take(10).Sum(b => RawLayout.Records(original, b).Count);
        using var reader = EtlReader.Open(Samples.PathOf(Samples.Powershell));
        reader.MaxBuffers = 10;
        Assert.AreEqual(inFirstTen, Count(reader));
        Assert.AreEqual(10L, reader.Health.Buffers);
        Assert.AreEqual(new HiddenCost.Etl.Reading.TraceWarning(10 * 8192, "the file holds more than 10 buffers, the most this reader indexes (a trace of 64 KiB buffers reaches that at 512 GiB); the rest of the file is not read"),
            reader.Health.FirstDamage);
        Assert.AreEqual(inFirstTen, reader.CountRecordsInFileOrder(), "the header-only walk stops there too");
    }

    [TestMethod]
    public void Traces_joined_into_one_file_are_read_whole_with_a_warning_from_the_headers_count_of_buffers_written()
    {
        // `cat powershell.etl powershell.etl`: every count doubled, and before this warning nothing said so.
        var once = Samples.Bytes(Samples.Powershell);
        using var joined = Samples.Copy(Samples.Powershell, bytes => [.. bytes, .. bytes]);
        using var single = EtlReader.Open(Samples.PathOf(Samples.Powershell));
        using var reader = EtlReader.Open(joined.Path);
        Assert.AreEqual(2 * Count(single), Count(reader), "both copies are read");
        Assert.AreEqual(0L, single.Health.BuffersBeyondWritten);
        Assert.AreEqual(26L, reader.Health.BuffersBeyondWritten);
        var warning = reader.Health.Warnings.First();
        Assert.AreEqual(new HiddenCost.Etl.Reading.TraceWarning(0, "the trace header says 26 buffers were written, the file holds 52: traces joined together, " +
            "or a header not updated when the recording stopped; every buffer is read"), warning);
        Assert.IsFalse(reader.Health.IsDamaged, "nothing was left unread");
        Assert.AreEqual(2 * once.Length, reader.FileLength);
    }

    [TestMethod]
    [DataRow(0x68 + 12, 4, 0L, "it says 0 processors", DisplayName = "no processors")]
    [DataRow(0x68 + 44, 4, 3L, "it says pointer size 3", DisplayName = "a 3-byte pointer")]
    public void A_trace_header_no_recorder_writes_is_rejected_naming_the_value(int offset, int size, long value, string reason)
    {
        // powershell.etl's trace header payload starts at 0x68 (buffer header, then a 32-byte system header).
        using var copy = Samples.Copy(Samples.Powershell, bytes =>
        {
            if (size == 4) BinaryPrimitives.WriteUInt32LittleEndian(bytes.AsSpan(offset), (uint)value);
            else BinaryPrimitives.WriteInt64LittleEndian(bytes.AsSpan(offset), value);
            return bytes;
        });
        var e = Assert.ThrowsExactly<EtlFormatException>(() => EtlReader.Open(copy.Path));
        Assert.AreEqual((long)BufferHeader.Size, e.Offset);
        StringAssert.Contains(e.Reason, "trace header is damaged: " + reason);
    }

    [TestMethod]
    public void An_impossible_buffer_size_loses_that_buffer_and_reading_resumes_at_the_next()
    {
        var original = Samples.Bytes(Samples.ShutdownPerfDiagLogger);
        var buffers = RawLayout.Buffers(original);
        using var copy = Samples.Copy(Samples.ShutdownPerfDiagLogger, bytes =>
        {
            BinaryPrimitives.WriteUInt32LittleEndian(bytes.AsSpan((int)buffers[30].Offset), 0xFFFF_FFF0);
            return bytes;
        });
        using var reader = EtlReader.Open(copy.Path);
        Assert.AreEqual(buffers.Where((_, i) => i != 30).Sum(b => RawLayout.Records(original, b).Count), Count(reader));
        Assert.AreEqual(buffers[30].Offset, reader.Health.Warnings.Single().Offset);
        StringAssert.Contains(reader.Health.Warnings[0].Message, "buffer size 4294967280 is impossible; buffer skipped");
        Assert.IsTrue(reader.Health.IsDamaged);
    }

    [TestMethod]
    public void An_impossible_buffer_size_in_a_compressed_file_ends_the_file_there()
    {
        var original = Samples.Bytes(Samples.NetX64);
        var buffers = RawLayout.Buffers(original);
        using var copy = Samples.Copy(Samples.NetX64, bytes =>
        {
            BinaryPrimitives.WriteUInt32LittleEndian(bytes.AsSpan((int)buffers[200].Offset), 3);
            return bytes;
        });
        using var reader = EtlReader.Open(copy.Path);
        Assert.AreEqual(buffers.Take(200).Sum(b => RecordsOfCompressedOrPlain(original, b)), Count(reader));
        StringAssert.Contains(reader.Health.Warnings.Single().Message, "buffer size 3 is impossible; the rest of the file is not read");
    }

    [TestMethod]
    public void A_broken_compressed_buffer_is_skipped_and_the_others_still_decode()
    {
        var original = Samples.Bytes(Samples.NetX64);
        var buffers = RawLayout.Buffers(original);
        var broken = buffers[100];
        Assert.IsTrue(broken.IsCompressed);
        int lost = RecordsOfCompressed(original, broken);
        using var copy = Samples.Copy(Samples.NetX64, bytes =>
        {
            // A match token at the very start of the stream refers back before any output.
            bytes.AsSpan((int)broken.Offset + BufferHeader.Size, 6).Fill(0xFF);
            return bytes;
        });
        using var reader = EtlReader.Open(copy.Path);
        Assert.AreEqual(179_474 - lost, Count(reader));
        Assert.AreEqual(359L, reader.Health.CompressedBuffers);
        Assert.AreEqual(1L, reader.Health.DamagedBuffers);
        Assert.AreEqual(broken.Offset, reader.Health.Warnings.Single().Offset);
        StringAssert.Contains(reader.Health.Warnings[0].Message, "compressed buffer is corrupt");
        Assert.AreEqual(reader.Health.Warnings[0], reader.Health.FirstDamage);
    }

    [TestMethod]
    public void A_buffer_from_a_processor_the_header_does_not_count_is_read_with_a_warning()
    {
        // net.4.5.2.x64's header counts 8 processors; buffer 100 is made to claim processor 200.
        var original = Samples.Bytes(Samples.NetX64);
        var target = RawLayout.Buffers(original)[100];
        using var copy = Samples.Copy(Samples.NetX64, bytes =>
        {
            int at = (int)target.Offset;
            bool index = (BinaryPrimitives.ReadUInt16LittleEndian(bytes.AsSpan(at + 0x34)) & (ushort)BufferFlags.ProcessorIndex) != 0;
            if (index) BinaryPrimitives.WriteUInt16LittleEndian(bytes.AsSpan(at + 0x28), 200);
            else bytes[at + 0x28] = 200;
            return bytes;
        });
        using var reader = EtlReader.Open(copy.Path);
        Assert.AreEqual(179_474, Count(reader), "its events are still read");
        var warning = reader.Health.Warnings.Single();
        Assert.AreEqual(target.Offset, warning.Offset);
        StringAssert.Contains(warning.Message, "1 buffer from processor 200, but the trace header counts 8 processors");
        Assert.IsFalse(reader.Health.IsDamaged, "nothing was given up");
        using var intact = EtlReader.Open(Samples.PathOf(Samples.NetX64));
        Count(intact);
        Assert.AreEqual(0, intact.Health.Warnings.Count);
    }

    [TestMethod]
    public void An_absurd_decompressed_size_is_refused_before_anything_is_allocated()
    {
        var original = Samples.Bytes(Samples.NetX64);
        var target = RawLayout.Buffers(original)[50];
        int lost = RecordsOfCompressed(original, target);
        using var copy = Samples.Copy(Samples.NetX64, bytes =>
        {
            BinaryPrimitives.WriteUInt32LittleEndian(bytes.AsSpan((int)target.Offset + 4), 0x7FFF_FFF0);
            return bytes;
        });
        using var reader = EtlReader.Open(copy.Path);
        long before = GC.GetAllocatedBytesForCurrentThread();
        Assert.AreEqual(179_474 - lost, Count(reader));
        long allocated = GC.GetAllocatedBytesForCurrentThread() - before;
        Assert.IsTrue(allocated < 8 * 1024 * 1024, $"{allocated} bytes allocated");
        StringAssert.Contains(reader.Health.Warnings.Single().Message, "compressed buffer declares 2147483632 bytes of data (at most 1048576 possible)");
    }

    [TestMethod]
    public void An_extended_data_item_larger_than_its_record_is_reported()
    {
        var original = Samples.Bytes(Samples.PrimitiveTypes);
        var buffers = RawLayout.Buffers(original);
        var (buffer, record) = buffers.SelectMany(b => RawLayout.Records(original, b).Select(r => (b, r)))
            .First(x => x.r.HeaderType is 18 or 19 && (original[x.r.Offset + 4] & 1) != 0);
        using var copy = Samples.Copy(Samples.PrimitiveTypes, bytes =>
        {
            BinaryPrimitives.WriteUInt16LittleEndian(bytes.AsSpan((int)record.Offset + 80 + 6), 0xFFF0);
            return bytes;
        });
        using var reader = EtlReader.Open(copy.Path);
        Count(reader);
        Assert.AreEqual(buffer.Offset, reader.Health.Warnings.Single().Offset);
        StringAssert.Contains(reader.Health.Warnings[0].Message, "extended data item runs past the record");
    }

    /// <summary>
    /// Synthetic: a real first buffer followed by 4,000 compressed buffers, each on its own processor, each a
    /// short XPRESS stream that expands to a full 1 MiB holding one PerfInfo record. Every one decodes, and the
    /// merge would hold them all at once (4 GB), so the reader stops at its budget, warns, and finishes.
    /// </summary>
    [TestMethod]
    public void Thousands_of_processors_claiming_large_buffers_stay_within_the_memory_budget()
    {
        var first = Samples.Bytes(Samples.Powershell).AsSpan(0, 8192);
        var bytes = new List<byte>(first.ToArray());
        const int saved = 1024 * 1024;
        for (int cpu = 0; cpu < 4000; cpu++)
        {
            // 17 literals: a 16-byte PerfInfo64 SampledProfile record and one 0xFF; then a distance-1 match of
            // 0xFF (end markers) to the end of the buffer.
            var literals = new byte[17];
            literals[0] = 2; literals[2] = 17; literals[3] = 0xC0; literals[4] = 16; literals[6] = 46; literals[7] = KernelGroups.PerfInfo;
            BinaryPrimitives.WriteInt64LittleEndian(literals.AsSpan(8), 12_676_583_967L + cpu);
            literals[16] = 0xFF;
            var stream = new List<byte> { 0xFF, 0x7F, 0x00, 0x00 }; // flags: 17 literals (0), 1 match, rest 1
            stream.AddRange(literals);
            stream.AddRange(new byte[] { 0x07, 0x00, 0x0F, 0xFF, 0x00, 0x00 });
            stream.AddRange(BitConverter.GetBytes(saved - BufferHeader.Size - 17 - 3));
            var header = new byte[BufferHeader.Size];
            BinaryPrimitives.WriteUInt32LittleEndian(header, (uint)(BufferHeader.Size + stream.Count));
            BinaryPrimitives.WriteUInt32LittleEndian(header.AsSpan(4), saved);
            BinaryPrimitives.WriteUInt16LittleEndian(header.AsSpan(0x28), (ushort)(cpu % 2048));
            BinaryPrimitives.WriteUInt16LittleEndian(header.AsSpan(0x34), 0x40 | 0x20);
            bytes.AddRange(header);
            bytes.AddRange(stream);
        }
        using var reader = EtlReader.Open(bytes.ToArray(), "synthetic-many-processors.etl");
        int events = Count(reader);
        Assert.IsTrue(reader.Health.Warnings.Any(w => w.Message.Contains("past 512 MiB", StringComparison.Ordinal)),
            string.Join("; ", reader.Health.Warnings.Take(3)));
        // Each buffer either delivered its record and then stopped far before the 1 MiB its header claims (damage too),
        // or was refused; the two records of powershell.etl's first buffer are whole.
        Assert.AreEqual(4000L, reader.Health.DamagedBuffers, "every claiming buffer is damage, read or refused");
        Assert.IsTrue(events > 2 && events < 4002 - 1000, $"{events} events");
        Assert.AreEqual(1, reader.Health.Warnings.Count(w => w.Message.Contains("processors (the first here: 32), but the trace header counts 32 processors", StringComparison.Ordinal)),
            "the processors past the header's 32 in one warning, which leaves room for the others");
    }

    [TestMethod]
    public void In_memory_traces_read_like_files()
    {
        using var fromFile = EtlReader.Open(Samples.PathOf(Samples.Powershell));
        using var fromMemory = EtlReader.Open(Samples.Bytes(Samples.Powershell), "powershell.etl");
        Assert.AreEqual(fromFile.Header, fromMemory.Header);
        Assert.AreEqual(Count(fromFile), Count(fromMemory));
        var e = Assert.ThrowsExactly<EtlFormatException>(() => EtlReader.Open(ReadOnlyMemory<byte>.Empty, "nothing.etl"));
        Assert.AreEqual("nothing.etl", e.FilePath);
    }

    private static int Count(EtlReader reader)
    {
        int n = 0;
        foreach (var e in reader.ReadEvents())
        {
            n++;
            _ = e.Payload.Length + e.ExtendedData.Length;
        }
        return n;
    }

    private static int RecordsOfCompressedOrPlain(byte[] file, RawBuffer buffer) =>
        buffer.IsCompressed ? RecordsOfCompressed(file, buffer) : RawLayout.Records(file, buffer).Count;

    private static int RecordsOfCompressed(byte[] file, RawBuffer buffer)
    {
        var plain = new byte[buffer.SavedOffset];
        file.AsSpan((int)buffer.Offset, BufferHeader.Size).CopyTo(plain);
        var input = file.AsSpan((int)buffer.Offset + BufferHeader.Size, (int)buffer.BufferSize - BufferHeader.Size);
        Assert.AreEqual(plain.Length - BufferHeader.Size, XpressDecoder.Decompress(input, plain.AsSpan(BufferHeader.Size)));
        return RawLayout.Records(plain, buffer with { Offset = 0, BufferSize = buffer.SavedOffset }).Count;
    }

    private static byte[] RandomBytes(Random random, int length)
    {
        var bytes = new byte[length];
        random.NextBytes(bytes);
        return bytes;
    }

    private static byte[] WithoutHeaderEvent(byte[] sample)
    {
        var bytes = (byte[])sample.Clone();
        bytes[BufferHeader.Size + 7] = KernelGroups.Thread; // the first record becomes a Thread event
        return bytes;
    }
}
