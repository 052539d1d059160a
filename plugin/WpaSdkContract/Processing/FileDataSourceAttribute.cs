using System;
using System.IO;

namespace Microsoft.Performance.SDK.Processing
{
    /// <summary>Claims files by extension (stored without the leading dot, compared ignoring case).</summary>
    [AttributeUsage(AttributeTargets.Class, AllowMultiple = false, Inherited = true)]
    public sealed class FileDataSourceAttribute : DataSourceAttribute
    {
        public FileDataSourceAttribute(string fileExtension, string description)
            : base(typeof(FileDataSource), description)
        {
            if (string.IsNullOrWhiteSpace(fileExtension))
            {
                throw new ArgumentException("A file extension is required.", nameof(fileExtension));
            }

            this.FileExtension = fileExtension.TrimStart('.');
        }

        public string FileExtension { get; }

        protected override bool AcceptsCore(IDataSource dataSource)
        {
            return dataSource is FileDataSource file
                && string.Equals("." + this.FileExtension, Path.GetExtension(file.FullPath), StringComparison.OrdinalIgnoreCase);
        }
    }
}
