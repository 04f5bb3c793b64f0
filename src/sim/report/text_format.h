// Text helpers shared by campsim's reports: numbers for tables and CSV, CSV fields, file stems,
// writing a whole file with an error naming it. No metrics logic.
#pragma once

#include "util/result.h"

#include <string>

namespace campaign::sim
{

// Full precision for data files ("%.10g"; non-finite values as "nan"/"inf").
std::string format_number(double value);
// Short text for tables: integers as integers, else one decimal from 1000 up, 4 significant
// figures down to 0.001, 2 below (1234.56 -> "1234.6", 0.123456 -> "0.1235", 2.5e-05 ->
// "2.5e-05").
std::string format_table_number(double value);
// A CSV field, quoted (with quotes doubled) when it holds a comma, a quote or a line break.
std::string csv_field(const std::string &text);
// A label made safe as a file name: every character other than [A-Za-z0-9._-] becomes '_'.
std::string file_stem(const std::string &label);
// Writes `text` to `path` (replacing it); the error names the path and the system's reason.
Status write_text_file(const std::string &path, const std::string &text);

} // namespace campaign::sim
