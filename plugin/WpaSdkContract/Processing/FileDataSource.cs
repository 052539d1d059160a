using System;
using System.IO;

namespace Microsoft.Performance.SDK.Processing
{
    /// <summary>A file the host asks a processing source to open.</summary>
    public class FileDataSource : DataSource
    {
        public FileDataSource(string path)
            : base(new Uri(Path.GetFullPath(path)))
        {
            this.FullPath = Path.GetFullPath(path);
        }

        public string FullPath { get; }
    }
}
