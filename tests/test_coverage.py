from codesift.search.coverage import share


def test_share_never_rounds_into_a_state_it_is_not_in():
    assert share(4187 / 4191) == "99%"  # read "100%" beside "run `codesift index` to finish"
    assert share(3 / 5000) == "<1%"
    assert (share(0), share(1), share(0.29), share(0.5)) == ("0%", "100%", "29%", "50%")
    assert share(None) == "0%" and share(1.2) == "100%"
