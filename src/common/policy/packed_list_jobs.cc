// PackedListJobs: LEB128 varint encoding of a campaign's list-schedule jobs, with in-place
// replace and remove. Storage only: no scheduling, no Slurm types.
#include "policy/packed_list_jobs.h"

#include <algorithm>

namespace campaign
{

namespace
{

// The longest record: a 33-bit zigzag id difference and two 32-bit counts (5 bytes each), a
// 64-bit zigzag length (10 bytes).
constexpr size_t kMaxRecordBytes = 25;

struct EncodedRecord {
	uint8_t bytes[kMaxRecordBytes];
	size_t size = 0;

	void append_varint(uint64_t value)
	{
		for (; value >= 0x80; value >>= 7)
			bytes[size++] = static_cast<uint8_t>(value | 0x80);
		bytes[size++] = static_cast<uint8_t>(value);
	}
};

uint64_t zigzag(int64_t value)
{
	return (static_cast<uint64_t>(value) << 1) ^ static_cast<uint64_t>(value >> 63);
}

int64_t unzigzag(uint64_t value)
{
	return static_cast<int64_t>(value >> 1) ^ -static_cast<int64_t>(value & 1);
}

EncodedRecord encode(const ListJob &job, uint32_t previous_job_id)
{
	EncodedRecord record;
	record.append_varint(zigzag(static_cast<int64_t>(job.job_id) - previous_job_id));
	record.append_varint(job.cpus);
	record.append_varint(job.tasks);
	record.append_varint(zigzag(job.length_s));
	return record;
}

uint64_t read_varint(const uint8_t *&cursor)
{
	uint64_t value = 0;
	for (unsigned shift = 0;; shift += 7) {
		const uint8_t byte = *cursor++;
		value |= static_cast<uint64_t>(byte & 0x7f) << shift;
		if (byte < 0x80)
			return value;
	}
}

// Decodes the record at `cursor` into `job`; returns the next record's first byte.
const uint8_t *decode(const uint8_t *cursor, uint32_t previous_job_id, ListJob &job)
{
	job.job_id = static_cast<uint32_t>(previous_job_id + unzigzag(read_varint(cursor)));
	job.cpus = static_cast<uint32_t>(read_varint(cursor));
	job.tasks = static_cast<uint32_t>(read_varint(cursor));
	job.length_s = unzigzag(read_varint(cursor));
	return cursor;
}

} // namespace

// Constructed at the first record (or at the end): the id difference starts from 0.
PackedListJobs::const_iterator::const_iterator(const uint8_t *cursor, const uint8_t *end)
    : cursor_(cursor), next_(cursor), end_(end)
{
	if (cursor_ != end_)
		next_ = decode(cursor_, 0, job_);
}

PackedListJobs::const_iterator &PackedListJobs::const_iterator::operator++()
{
	cursor_ = next_;
	if (cursor_ != end_)
		next_ = decode(cursor_, job_.job_id, job_);
	return *this;
}

PackedListJobs::const_iterator PackedListJobs::begin() const
{
	return {bytes_.data(), bytes_.data() + bytes_.size()};
}

PackedListJobs::const_iterator PackedListJobs::end() const
{
	return {bytes_.data() + bytes_.size(), bytes_.data() + bytes_.size()};
}

std::vector<ListJob> PackedListJobs::unpack() const
{
	std::vector<ListJob> jobs;
	jobs.reserve(count_);
	for (const ListJob &job : *this)
		jobs.push_back(job);
	return jobs;
}

PackedListJobs::Record PackedListJobs::find(uint32_t job_id) const
{
	if (job_id > max_job_id_)
		return {}; // the common case, a new job: no scan
	const uint8_t *const first = bytes_.data();
	const uint8_t *const last = first + bytes_.size();
	uint32_t previous_job_id = 0;
	for (const uint8_t *cursor = first; cursor != last;) {
		ListJob job;
		const uint8_t *next = decode(cursor, previous_job_id, job);
		if (job.job_id == job_id)
			return {static_cast<size_t>(cursor - first),
			        static_cast<size_t>(next - first), previous_job_id, true};
		previous_job_id = job.job_id;
		cursor = next;
	}
	return {};
}

// Replaces bytes [begin, end) with `size` new bytes, growing the capacity by an eighth at a
// time (amortized O(1) appends with little slack).
void PackedListJobs::splice(size_t begin, size_t end, const uint8_t *bytes, size_t size)
{
	const size_t old_size = end - begin;
	const size_t new_total = bytes_.size() - old_size + size;
	if (new_total > bytes_.capacity())
		bytes_.reserve(new_total + new_total / 8 + 8);
	if (size > old_size)
		bytes_.insert(bytes_.begin() + static_cast<std::ptrdiff_t>(end), size - old_size,
		              0);
	else
		bytes_.erase(bytes_.begin() + static_cast<std::ptrdiff_t>(begin + size),
		             bytes_.begin() + static_cast<std::ptrdiff_t>(end));
	std::copy(bytes, bytes + size, bytes_.begin() + static_cast<std::ptrdiff_t>(begin));
}

void PackedListJobs::push_back(const ListJob &job)
{
	const EncodedRecord record = encode(job, last_job_id_);
	splice(bytes_.size(), bytes_.size(), record.bytes, record.size);
	count_++;
	last_job_id_ = job.job_id;
	max_job_id_ = std::max(max_job_id_, job.job_id);
}

void PackedListJobs::put(const ListJob &job)
{
	const Record old = find(job.job_id);
	if (!old.found) {
		push_back(job);
		return;
	}
	// Same id, same difference: the next record stays as it is.
	const EncodedRecord record = encode(job, old.previous_job_id);
	splice(old.begin, old.end, record.bytes, record.size);
}

void PackedListJobs::remove(uint32_t job_id)
{
	for (Record old = find(job_id); old.found; old = find(job_id)) {
		count_--;
		if (old.end == bytes_.size()) {
			last_job_id_ = old.previous_job_id;
			bytes_.resize(old.begin);
			continue;
		}
		// The next record's id difference is rebased on the removed record's predecessor.
		ListJob next;
		const uint8_t *next_end = decode(bytes_.data() + old.end, job_id, next);
		const EncodedRecord record = encode(next, old.previous_job_id);
		splice(old.begin, static_cast<size_t>(next_end - bytes_.data()), record.bytes,
		       record.size);
	}
	// A campaign that lost most of its jobs gives the bytes back.
	if (bytes_.capacity() > 2 * bytes_.size() + 64)
		bytes_.shrink_to_fit();
}

} // namespace campaign
