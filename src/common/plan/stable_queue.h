// StableQueue: the planner's pending queue, in rank order, read like a vector of its entries.
// Each entry lives in its own allocation and the queue moves pointers only: a job started from
// a queue of tens of thousands moved every entry below it (a few hundred bytes each), a seventh
// of a deep plan's time. Each entry's id is kept beside it in one dense array, so finding a job
// reads that array, not the entries; so is its shape (ShapeOf, optional: what a walk tests of an
// entry it may pass over, which must not change while the entry is queued).
#pragma once

#include "plan/plan_types.h"
#include "util/prefetch.h"

#include <algorithm>
#include <cstddef>
#include <iterator>
#include <memory>
#include <type_traits>
#include <vector>

namespace campaign::plan
{

// Shape for a queue that keeps none.
struct NoShape {
};

// T: the entry; IdOf: its job's id, which must not change while it is queued; ShapeOf likewise
// (none kept with NoShape). Whether shapes are kept is read from the type, not from ShapeOf:
// a function's address is no constant expression under -fsanitize=undefined (g++ 12).
template <class T, JobId (*IdOf)(const T &), class Shape = NoShape,
          Shape (*ShapeOf)(const T &) = nullptr>
class StableQueue
{
	using Slots = std::vector<std::unique_ptr<T>>;
	static constexpr bool kShapes = !std::is_same_v<Shape, NoShape>;

	template <class Value, class Base> class Iterator
	{
	public:
		using iterator_category = std::random_access_iterator_tag;
		using value_type = T;
		using difference_type = std::ptrdiff_t;
		using pointer = Value *;
		using reference = Value &;

		Iterator() = default;
		explicit Iterator(Base at) : at_(at) {}
		reference operator*() const { return **at_; }
		pointer operator->() const { return at_->get(); }
		reference operator[](difference_type n) const { return *at_[n]; }
		Iterator &operator++()
		{
			++at_;
			return *this;
		}
		Iterator operator++(int) { return Iterator(at_++); }
		Iterator &operator--()
		{
			--at_;
			return *this;
		}
		Iterator operator--(int) { return Iterator(at_--); }
		Iterator &operator+=(difference_type n)
		{
			at_ += n;
			return *this;
		}
		Iterator &operator-=(difference_type n)
		{
			at_ -= n;
			return *this;
		}
		friend Iterator operator+(Iterator it, difference_type n) { return it += n; }
		friend Iterator operator+(difference_type n, Iterator it) { return it += n; }
		friend Iterator operator-(Iterator it, difference_type n) { return it -= n; }
		friend difference_type operator-(const Iterator &a, const Iterator &b)
		{
			return a.at_ - b.at_;
		}
		friend bool operator==(const Iterator &a, const Iterator &b)
		{
			return a.at_ == b.at_;
		}
		friend auto operator<=>(const Iterator &a, const Iterator &b)
		{
			return a.at_ <=> b.at_;
		}
		Base base() const { return at_; }

	private:
		Base at_{};
	};

public:
	using iterator = Iterator<T, typename Slots::iterator>;
	using const_iterator = Iterator<const T, typename Slots::const_iterator>;

	StableQueue() = default;
	// A copy holds copies of the entries (the local search copies the whole planner).
	// (Spare allocations are not copied.)
	StableQueue(const StableQueue &other) : ids_(other.ids_), shapes_(other.shapes_)
	{
		slots_.reserve(other.slots_.size());
		for (const auto &slot : other.slots_)
			slots_.push_back(std::make_unique<T>(*slot));
	}
	StableQueue &operator=(const StableQueue &other)
	{
		if (this != &other)
			*this = StableQueue(other);
		return *this;
	}
	StableQueue(StableQueue &&) noexcept = default;
	StableQueue &operator=(StableQueue &&) noexcept = default;

	size_t size() const { return slots_.size(); }
	bool empty() const { return slots_.empty(); }
	size_t capacity() const { return slots_.capacity(); }
	void reserve(size_t n)
	{
		slots_.reserve(n);
		ids_.reserve(n);
		if constexpr (kShapes)
			shapes_.reserve(n);
	}
	void clear()
	{
		slots_.clear();
		ids_.clear();
		shapes_.clear();
	}
	// Asks for entry i's lines ahead of a walk in index order (nothing past the end): the
	// entries lie apart, so a walk otherwise waits on each one's first read in turn.
	void prefetch(size_t i) const
	{
		if (i < slots_.size())
			prefetch_object(slots_[i].get());
	}
	// ShapeOf(entry i), read from the dense array (only with a ShapeOf).
	const Shape &shape(size_t i) const { return shapes_[i]; }

	T &operator[](size_t i) { return *slots_[i]; }
	const T &operator[](size_t i) const { return *slots_[i]; }
	T &back() { return *slots_.back(); }
	const T &back() const { return *slots_.back(); }
	iterator begin() { return iterator(slots_.begin()); }
	iterator end() { return iterator(slots_.end()); }
	const_iterator begin() const { return const_iterator(slots_.begin()); }
	const_iterator end() const { return const_iterator(slots_.end()); }

	// In a spare allocation if pop_back_kept left one.
	void push_back(T &&entry)
	{
		ids_.push_back(IdOf(entry));
		if constexpr (kShapes)
			shapes_.push_back(ShapeOf(entry));
		if (spare_.empty()) {
			slots_.push_back(std::make_unique<T>(std::move(entry)));
			return;
		}
		*spare_.back() = std::move(entry);
		slots_.push_back(std::move(spare_.back()));
		spare_.pop_back();
	}
	// An allocation for push_back_spare: a spare one if pop_back_kept left one (its contents
	// as they were), else a new T. The caller writes the entry in place.
	T &spare()
	{
		if (spare_.empty())
			spare_.push_back(std::make_unique<T>());
		return *spare_.back();
	}
	// Queues the entry spare() gave, written since.
	void push_back_spare()
	{
		ids_.push_back(IdOf(*spare_.back()));
		if constexpr (kShapes)
			shapes_.push_back(ShapeOf(*spare_.back()));
		slots_.push_back(std::move(spare_.back()));
		spare_.pop_back();
	}
	void pop_back()
	{
		slots_.pop_back();
		ids_.pop_back();
		if constexpr (kShapes)
			shapes_.pop_back();
	}
	// pop_back, its allocation kept for a later push_back: a plan made afresh empties the
	// queue and fills it again, and an allocation and a free per entry were a twentieth of
	// fair-share's EASY plan on a deep queue.
	void pop_back_kept()
	{
		spare_.push_back(std::move(slots_.back()));
		pop_back();
	}
	// Frees the allocations no push_back took (the queue came back shorter): kept, they would
	// hold their entries' contents until the queue next grew that long.
	void release_spare() { spare_.clear(); }
	iterator insert(iterator at, T &&entry)
	{
		const auto index = at.base() - slots_.begin();
		ids_.insert(ids_.begin() + index, IdOf(entry));
		if constexpr (kShapes)
			shapes_.insert(shapes_.begin() + index, ShapeOf(entry));
		return iterator(slots_.insert(at.base(), std::make_unique<T>(std::move(entry))));
	}
	iterator erase(iterator at)
	{
		const auto index = at.base() - slots_.begin();
		ids_.erase(ids_.begin() + index);
		if constexpr (kShapes)
			shapes_.erase(shapes_.begin() + index);
		return iterator(slots_.erase(at.base()));
	}
	// The entry at `middle` and those after it up to `last` come first (std::rotate by
	// index): entries are moved by their pointers.
	void rotate(size_t first, size_t middle, size_t last)
	{
		using diff = std::ptrdiff_t;
		std::rotate(slots_.begin() + static_cast<diff>(first),
		            slots_.begin() + static_cast<diff>(middle),
		            slots_.begin() + static_cast<diff>(last));
		std::rotate(ids_.begin() + static_cast<diff>(first),
		            ids_.begin() + static_cast<diff>(middle),
		            ids_.begin() + static_cast<diff>(last));
		if constexpr (kShapes)
			std::rotate(shapes_.begin() + static_cast<diff>(first),
			            shapes_.begin() + static_cast<diff>(middle),
			            shapes_.begin() + static_cast<diff>(last));
	}
	void swap_at(size_t a, size_t b)
	{
		std::swap(slots_[a], slots_[b]);
		std::swap(ids_[a], ids_[b]);
		if constexpr (kShapes)
			std::swap(shapes_[a], shapes_[b]);
	}
	// The index of the job's entry, size() if none.
	size_t index_of(JobId id) const
	{
		return static_cast<size_t>(std::find(ids_.begin(), ids_.end(), id) - ids_.begin());
	}

private:
	Slots slots_;
	std::vector<JobId> ids_;    // ids_[i] == IdOf(*slots_[i])
	std::vector<Shape> shapes_; // shapes_[i] == ShapeOf(*slots_[i]) (with a ShapeOf)
	Slots spare_;               // pop_back_kept's, for push_back
};

} // namespace campaign::plan
