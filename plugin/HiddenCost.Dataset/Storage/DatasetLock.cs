namespace HiddenCost.Dataset.Storage;

/// <summary>
/// The dataset's writer lock: the file <c>_lock</c> held open with no sharing, which on Linux and macOS .NET takes as
/// an advisory lock (flock) and on Windows as a share-mode lock. The system lets go of it when the process ends, however
/// it ends (SIGKILL too), so a crashed run never leaves the dataset locked. A second extract into the same dataset
/// waits for the first to finish, then skips what it committed.
/// </summary>
public sealed class DatasetLock : IDisposable
{
    private readonly FileStream _file;

    private DatasetLock(FileStream file) => _file = file;

    /// <param name="waiting">Called once when another run holds the lock, before waiting for it.</param>
    public static DatasetLock Acquire(DatasetFolder dataset, Action? waiting, CancellationToken cancellation)
    {
        bool told = false;
        while (true)
        {
            try
            {
                return new DatasetLock(new FileStream(dataset.LockPath, FileMode.OpenOrCreate, FileAccess.ReadWrite, FileShare.None));
            }
            catch (IOException) when (File.Exists(dataset.LockPath))
            {
                if (!told) waiting?.Invoke();
                told = true;
                cancellation.WaitHandle.WaitOne(TimeSpan.FromMilliseconds(200));
                cancellation.ThrowIfCancellationRequested();
            }
        }
    }

    public void Dispose() => _file.Dispose();
}
