"""The inputs at the edge: devices and pages that post to the table's inbox."""
