// NodePool: the nodes of an unordered map or set kept across a clear and a refill, so that the
// refill allocates none. A plan made afresh refills the keeper's map of pending jobs and the
// planner's set of their ids with every pending job: allocating and freeing those nodes was 5 %
// of ostrich/conservative. The container ends as clear() and emplace() would leave it, in the
// same iteration order (same buckets, same insertions).
#pragma once

#include <cstddef>
#include <utility>
#include <vector>

namespace campaign::plan
{

template <typename Container> class NodePool
{
public:
	// A copy keeps no nodes (they are spare storage): the planner and its keeper are copied.
	NodePool() = default;
	NodePool(const NodePool &) {}
	NodePool &operator=(const NodePool &)
	{
		nodes_.clear();
		return *this;
	}
	NodePool(NodePool &&) = default;
	NodePool &operator=(NodePool &&) = default;

	// Empties `container`, as clear() does, keeping its nodes here.
	void clear(Container &container)
	{
		while (!container.empty())
			nodes_.push_back(container.extract(container.begin()));
	}
	// container.try_emplace(key) for a map, on a kept node if there is one: an inserted
	// node's value may be a kept one's, for the caller to set.
	template <typename Key>
	std::pair<typename Container::iterator, bool> try_emplace(Container &container,
	                                                          const Key &key)
	{
		if (nodes_.empty())
			return container.try_emplace(key);
		typename Container::node_type &node = nodes_.back();
		node.key() = key;
		auto inserted = container.insert(std::move(node));
		nodes_.pop_back();
		return {inserted.position, inserted.inserted};
	}
	// container.insert(key) for a set, on a kept node if there is one.
	template <typename Key>
	std::pair<typename Container::iterator, bool> insert(Container &container, const Key &key)
	{
		if (nodes_.empty())
			return container.insert(key);
		typename Container::node_type &node = nodes_.back();
		node.value() = key;
		auto inserted = container.insert(std::move(node));
		nodes_.pop_back();
		return {inserted.position, inserted.inserted};
	}
	size_t kept() const { return nodes_.size(); }

private:
	std::vector<typename Container::node_type> nodes_;
};

} // namespace campaign::plan
