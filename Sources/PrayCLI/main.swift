import Foundation

exit(await PrayCommandLine.main())
