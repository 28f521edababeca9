// The one place the system libyaml header enters the package.
#include <yaml.h>
